import random
import uuid

from flask import Flask, request

from .mail import send_verification

app = Flask(__name__)


@app.post("/signup")
def signup():
    verification_token = str(uuid.UUID(int=random.getrandbits(128)))
    send_verification(request.form["email"], verification_token)
    return "check your inbox", 201
