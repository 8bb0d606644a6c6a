import os

from flask import Flask, request

app = Flask(__name__)


@app.post("/reload")
def reload_worker():
    parts = request.headers.get("X-Worker", "web:0").split(":")
    pid = parts[1]
    os.system("kill -HUP " + pid)
    return "", 204
