import subprocess

from flask import Flask, request

from helpers.utils import clean

app = Flask(__name__)


@app.route("/convert", methods=["POST"])
def convert():
    src = clean(request.form["file"])
    subprocess.call("convert " + src + " -resize 50% /tmp/thumb.png", shell=True)
    return "ok"
