import os
import shlex

from flask import Flask, request

app = Flask(__name__)


@app.post("/archive")
def archive():
    name = request.form["name"]
    os.system("tar czf /srv/exports/out.tgz " + shlex.quote(name))
    return "queued", 202
