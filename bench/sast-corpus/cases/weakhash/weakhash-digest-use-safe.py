import hashlib

from flask import Flask, make_response, request
from werkzeug.security import generate_password_hash

from .db import current_user_id, store_credentials

app = Flask(__name__)


def fingerprint(value: str) -> str:
    return hashlib.md5(value.encode()).hexdigest()


@app.post("/account/password")
def change_password():
    new_hash = generate_password_hash(request.form["password"])
    store_credentials(current_user_id(), new_hash)
    body = "<p>Password changed</p>"
    resp = make_response(body)
    resp.headers["ETag"] = fingerprint(body)
    return resp
