import pickle
import pickle as pkl
import shelve
from dill import loads as dill_loads
import pandas as pd
import jsonpickle


def restore_session(blob):
    # ruleid: python.pickle-load
    return pickle.loads(blob)


def load_model(path):
    with open(path, "rb") as f:
        # ruleid: python.pickle-load
        return pkl.load(f)


def load_job(payload):
    # ruleid: python.pickle-load
    return dill_loads(payload)


def load_frame(path):
    # ruleid: python.pickle-load
    return pd.read_pickle(path)


def open_cache(path):
    # ruleid: python.pickle-load
    return shelve.open(path)


def from_json(text):
    # ruleid: python.pickle-load
    return jsonpickle.decode(text)


def save_session(session):
    # ok: python.pickle-load
    return pickle.dumps(session, protocol=pickle.HIGHEST_PROTOCOL)


def load_csv(path):
    # ok: python.pickle-load
    return pd.read_csv(path)
