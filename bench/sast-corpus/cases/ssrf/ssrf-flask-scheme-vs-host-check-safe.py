import urllib.request
from urllib.parse import urlparse

from flask import Flask, abort, request

app = Flask(__name__)
ALLOWED_HOSTS = {"images.example.com", "cdn.example.com"}


@app.post("/import-image")
def import_image():
    url = request.form["url"]
    parsed = urlparse(url)
    if parsed.scheme != "https" or parsed.hostname not in ALLOWED_HOSTS:
        abort(400)
    with urllib.request.urlopen(url, timeout=10) as resp:
        data = resp.read()
    return {"bytes": len(data)}
