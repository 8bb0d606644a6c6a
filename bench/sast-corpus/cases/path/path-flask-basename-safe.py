import os

from flask import Flask, request, send_file

app = Flask(__name__)
REPORTS = "/srv/reports"


@app.route("/report")
def report():
    name = os.path.basename(request.args["name"])
    return send_file(os.path.join(REPORTS, name))
