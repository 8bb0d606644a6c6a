import os

from flask import Flask, abort, request

app = Flask(__name__)
BASE_DIR = "/srv/exports"


@app.route("/download")
def download():
    full = os.path.join(BASE_DIR, request.args["file"])
    if not full.startswith(BASE_DIR + os.sep):
        abort(403)
    with open(full, "rb") as fh:
        return fh.read()
