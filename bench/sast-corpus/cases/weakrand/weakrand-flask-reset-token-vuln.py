import random
import secrets
import string

from flask import Flask, request

from .mail import send_reset_mail

app = Flask(__name__)
ALPHABET = string.ascii_letters + string.digits


@app.post("/forgot")
def forgot():
    token = "".join(random.choice(ALPHABET) for _ in range(32))
    send_reset_mail(request.form["email"], token)
    return "sent"
