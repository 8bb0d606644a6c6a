import urllib.request

import requests
from flask import Flask, request

app = Flask(__name__)


@app.route("/preview")
def preview():
    url = request.args["url"]
    # ruleid: python.taint-ssrf
    page = requests.get(url, timeout=5)
    return page.text


@app.route("/weather")
def weather():
    city = request.args["city"]
    # ok: python.taint-ssrf
    resp = requests.get("https://api.weather.example/v1", params={"q": city}, timeout=5)
    return resp.text


@app.route("/webhook", methods=["POST"])
def webhook():
    target = request.json["callback"]
    # ruleid: python.taint-ssrf
    urllib.request.urlopen(target)
    # ok: python.taint-ssrf
    requests.post("https://hooks.example.com/notify", json={"target": target}, timeout=5)
    return "ok"


def fetch_avatar(request):
    # ruleid: python.taint-ssrf
    return requests.request("GET", request.GET["avatar"], timeout=3)
