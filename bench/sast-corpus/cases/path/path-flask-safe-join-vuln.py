import os

from flask import Flask, abort, request
from werkzeug.utils import safe_join

app = Flask(__name__)
DOCS = "/srv/docs"


@app.route("/docs/<path:page>")
def doc_page(page):
    path = os.path.join(DOCS, page)
    if path is None or not os.path.isfile(path):
        abort(404)
    with open(path, encoding="utf-8") as fh:
        return fh.read(), 200, {"Content-Type": "text/plain"}
