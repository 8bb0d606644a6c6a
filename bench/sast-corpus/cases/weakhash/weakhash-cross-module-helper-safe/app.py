from flask import Flask, request

from helpers.utils import hash_password

from .db import insert_user

app = Flask(__name__)


@app.post("/register")
def register():
    insert_user(request.form["email"], hash_password(request.form["password"]))
    return "created", 201
