import functools
import os

from flask import Flask, request
from werkzeug.utils import secure_filename

app = Flask(__name__)
NOTES = "/srv/notes"


def cache_for(seconds):
    def decorate(view):
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            resp = app.make_response(view(*args, **kwargs))
            resp.headers["Cache-Control"] = f"max-age={seconds}"
            return resp
        return wrapper
    return decorate


@app.route("/note")
@cache_for(60)
def note():
    name = request.args["name"]
    with open(os.path.join(NOTES, name), encoding="utf-8") as fh:
        return fh.read(), 200, {"Content-Type": "text/plain"}
