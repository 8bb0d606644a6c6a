import hashlib

from flask import Flask, request
from werkzeug.security import generate_password_hash

from .db import save_user

app = Flask(__name__)


@app.post("/register")
def register():
    password = request.form["password"]
    digest = generate_password_hash(password)
    save_user(request.form["email"], digest)
    return "created", 201
