import base64
import hashlib
import hmac
import os
import pickle

from flask import Flask, abort, request

app = Flask(__name__)
SECRET = os.environ["STATE_KEY"].encode()


@app.route("/wizard")
def wizard():
    blob = base64.b64decode(request.cookies.get("state", ""))
    sig, payload = blob[:32], blob[32:]
    state = pickle.loads(payload)
    return {"step": state.get("step", 1)}
