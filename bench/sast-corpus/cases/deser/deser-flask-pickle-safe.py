import json
import pickle

from flask import Flask, request

app = Flask(__name__)


@app.post("/import")
def import_settings():
    settings = json.loads(request.get_data())
    return {"keys": sorted(settings)}
