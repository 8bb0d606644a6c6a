import os
from urllib.parse import unquote

from flask import Flask, request, send_file

app = Flask(__name__)
ATTACHMENTS = "/srv/attachments"


def fully_unquote(name):
    decoded = unquote(name)
    if decoded != name:
        return fully_unquote(decoded)
    return os.path.basename(decoded)


@app.route("/attachment")
def attachment():
    return send_file(os.path.join(ATTACHMENTS, fully_unquote(request.args["f"])))
