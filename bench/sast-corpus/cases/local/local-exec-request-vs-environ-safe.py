import os

from flask import Flask, request

app = Flask(__name__)


@app.route("/debug/startup")
def run_startup():
    path = os.environ.get("APP_STARTUP", "")
    if path and os.path.isfile(path):
        with open(path) as fh:
            exec(compile(fh.read(), path, "exec"), {})
    return "done"
