from urllib.parse import urlparse

import requests
from flask import Flask, abort, request

app = Flask(__name__)
TRUSTED_HOSTS = {"hooks.example.com"}


def is_allowed(url):
    return urlparse(url).scheme == "https"


@app.post("/webhook/test")
def test_webhook():
    url = request.form["url"]
    if not is_allowed(url):
        abort(400)
    resp = requests.post(url, json={"ping": True}, timeout=5, allow_redirects=False)
    return {"status": resp.status_code}
