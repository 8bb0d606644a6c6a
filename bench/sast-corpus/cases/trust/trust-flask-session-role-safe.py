from flask import Flask, request, session

from .models import User

app = Flask(__name__)
app.secret_key = "set-from-environment-in-production"


@app.post("/login")
def login():
    user = User.authenticate(request.form["email"], request.form["password"])
    if user is None:
        return "invalid credentials", 401
    session["user_id"] = user.id
    session["role"] = user.role
    return "ok"
