import json
import pickle
import pickle as pkl
import shelve
from dill import loads as dill_loads
import pandas as pd
import jsonpickle


def restore_session(blob):
    # nofix: python.pickle-load
    # ruleid: python.pickle-load
    return pickle.loads(blob)


def load_model(path):
    with open(path, "rb") as f:
        # nofix: python.pickle-load
        # ruleid: python.pickle-load
        return pkl.load(f)


def load_job(payload):
    # nofix: python.pickle-load
    # ruleid: python.pickle-load
    return dill_loads(payload)


def load_frame(path):
    # nofix: python.pickle-load
    # ruleid: python.pickle-load
    return pd.read_pickle(path)


def open_cache(path):
    # nofix: python.pickle-load
    # ruleid: python.pickle-load
    return shelve.open(path)


def from_json(text):
    # nofix: python.pickle-load
    # ruleid: python.pickle-load
    return jsonpickle.decode(text)


def save_session(session):
    # ok: python.pickle-load
    return pickle.dumps(session, protocol=pickle.HIGHEST_PROTOCOL)


def load_csv(path):
    # ok: python.pickle-load
    return pd.read_csv(path)


def clone(obj):
    text = json.dumps(obj)
    # ruleid: python.pickle-load
    return jsonpickle.decode(text)


def clone_settings(settings):
    payload = json.dumps(settings, sort_keys=True)
    copy = jsonpickle.decode(payload)  # ruleid: python.pickle-load
    return copy


def reload(obj, path):
    text = json.dumps(obj)
    text = open(path).read()
    # nofix: python.pickle-load (text was reassigned)
    # ruleid: python.pickle-load
    return jsonpickle.decode(text)
