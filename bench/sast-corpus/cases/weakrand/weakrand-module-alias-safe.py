import string
from random import choices as pick
from secrets import choice

from flask import Flask, session

app = Flask(__name__)
app.secret_key = "from-environment"


@app.before_request
def ensure_csrf_token():
    if "csrf" not in session:
        session["csrf"] = "".join(choice(string.ascii_letters) for _ in range(40))
