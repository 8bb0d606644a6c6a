import bcrypt
from django.contrib.auth.hashers import make_password
from flask import request
from requests.auth import HTTPBasicAuth
from werkzeug.security import generate_password_hash


def signup_django(request, User):
    name = request.POST["username"]
    passwd = request.POST["password"]
    # ruleid: python.taint-plaintext-password-storage
    User.objects.create(username=name, password=passwd)
    # ok: python.taint-plaintext-password-storage
    User.objects.create(username=name, password=make_password(passwd))


def signup_flask(db, User):
    user = User()
    # ruleid: python.taint-plaintext-password-storage
    user.password = request.form["password"]
    # ok: python.taint-plaintext-password-storage
    user.password = generate_password_hash(request.form["password"])
    # ruleid: python.taint-plaintext-password-storage
    db.session.add(User(username=request.form["username"], password=request.form["password"]))
    # ok: python.taint-plaintext-password-storage
    db.session.add(User(username="x", password=bcrypt.hashpw(request.form["password"].encode(), bcrypt.gensalt())))


def forward(session):
    # ok: python.taint-plaintext-password-storage
    return session.get("https://api.example.org", auth=HTTPBasicAuth("u", password=request.form["password"]))
