from urllib.parse import quote

import requests
from flask import Flask, request

app = Flask(__name__)


@app.route("/status")
def status():
    target = request.args.get("service", "")
    url = "https://status.example.com/health/" + quote(target, safe="")
    resp = requests.get(url, timeout=5)
    return {"status": resp.status_code}
