import base64
import json
import pickle

import yaml
from flask import Flask, request

app = Flask(__name__)


@app.route("/restore", methods=["POST"])
def restore():
    blob = base64.b64decode(request.cookies.get("state", ""))
    # ruleid: python.taint-insecure-deserialization
    state = pickle.loads(blob)
    # ok: python.taint-insecure-deserialization
    prefs = json.loads(request.cookies.get("prefs", "{}"))
    return str(state) + str(prefs)


@app.route("/config", methods=["POST"])
def config():
    text = request.get_data(as_text=True)
    # ruleid: python.taint-insecure-deserialization
    cfg = yaml.load(text, Loader=yaml.Loader)
    # ok: python.taint-insecure-deserialization
    safe = yaml.load(text, Loader=yaml.SafeLoader)
    # ok: python.taint-insecure-deserialization
    other = yaml.safe_load(text)
    return str(cfg) + str(safe) + str(other)


def upload(request):
    # ruleid: python.taint-insecure-deserialization
    model = pickle.load(request.FILES["model"])
    with open("/srv/cache/model.pkl", "rb") as fh:
        # ok: python.taint-insecure-deserialization
        cached = pickle.load(fh)
    return model, cached
