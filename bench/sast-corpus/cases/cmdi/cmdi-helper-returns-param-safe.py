import os

from flask import Flask, request

app = Flask(__name__)


def first_non_empty(a, b):
    if a:
        return a
    return "example.org"


@app.route("/whois")
def whois():
    domain = request.args.get("domain", "")
    target = first_non_empty("example.org", domain)
    with os.popen("whois " + target) as fh:
        return fh.read()
