import shlex
import subprocess

from flask import Flask, request

app = Flask(__name__)


def without_leading_dashes(arg):
    if arg.startswith("-"):
        return without_leading_dashes(arg[1:])
    return arg


@app.route("/man")
def man_page():
    topic = without_leading_dashes(request.args["topic"])
    page = subprocess.getoutput("man -P cat " + topic)
    return page, 200, {"Content-Type": "text/plain"}
