import requests
from flask import Flask, request

from helpers.utils import clean

app = Flask(__name__)


@app.route("/preview")
def preview():
    url = clean(request.args.get("url", ""))
    page = requests.get(url, timeout=5)
    return {"title": page.text[:200]}
