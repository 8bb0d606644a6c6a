import base64
import io
import json
import marshal
import pickle
import sys

import jsonpickle
import pandas
import torch
import tornado.web
import yaml
from aiohttp import web
from django.http import JsonResponse
from django.views import View
from fastapi import FastAPI, Request, UploadFile
from flask import Flask, request

app = Flask(__name__)
api = FastAPI()


@app.route("/restore", methods=["POST"])
def restore():
    blob = base64.b64decode(request.cookies.get("state", ""))
    # ruleid: python.taint-insecure-deserialization
    state = pickle.loads(blob)
    # ok: python.taint-insecure-deserialization
    prefs = json.loads(request.cookies.get("prefs", "{}"))
    return str(state) + str(prefs)


@app.route("/config", methods=["POST"])
def config():
    text = request.get_data(as_text=True)
    # ruleid: python.taint-insecure-deserialization
    cfg = yaml.load(text, Loader=yaml.Loader)
    # ok: python.taint-insecure-deserialization
    safe = yaml.load(text, Loader=yaml.SafeLoader)
    # ok: python.taint-insecure-deserialization
    other = yaml.safe_load(text)
    return str(cfg) + str(safe) + str(other)


def upload(request):
    # ruleid: python.taint-insecure-deserialization
    model = pickle.load(request.FILES["model"])
    with open("/srv/cache/model.pkl", "rb") as fh:
        # ok: python.taint-insecure-deserialization
        cached = pickle.load(fh)
    return model, cached


class SessionImportView(View):
    def post(self, request):
        # ruleid: python.taint-insecure-deserialization
        data = marshal.loads(base64.b64decode(self.request.body))
        # ok: python.taint-insecure-deserialization
        meta = json.loads(self.request.body)
        return JsonResponse({"n": len(data), "meta": meta})


@api.post("/model")
async def load_model(file: UploadFile):
    raw = await file.read()
    # ruleid: python.taint-insecure-deserialization
    model = torch.load(io.BytesIO(raw))
    # ok: python.taint-insecure-deserialization
    weights = torch.load(io.BytesIO(raw), weights_only=True)
    return {"layers": len(model), "weights": len(weights)}


@api.post("/docs")
async def import_docs(request: Request):
    body = await request.body()
    # ruleid: python.taint-insecure-deserialization
    docs = list(yaml.load_all(body, Loader=yaml.FullLoader))
    # ok: python.taint-insecure-deserialization
    safe_docs = list(yaml.safe_load_all(body))
    return {"n": len(docs) + len(safe_docs)}


class RestoreHandler(tornado.web.RequestHandler):
    def post(self):
        # ruleid: python.taint-insecure-deserialization
        state = jsonpickle.decode(self.request.body)
        self.write({"ok": state is not None})


async def restore_frame(request):
    blob = await request.read()
    # ruleid: python.taint-insecure-deserialization
    frame = pandas.read_pickle(io.BytesIO(blob))
    return web.json_response({"rows": len(frame)})


def worker(sock):
    message = sock.recv(65536)
    # ruleid: python.taint-insecure-deserialization
    job = pickle.loads(message)
    # ok: python.taint-insecure-deserialization
    ack = pickle.dumps({"job": "received"})
    return job, ack


def cli():
    # ruleid: python.taint-insecure-deserialization
    return pickle.load(open(sys.argv[1], "rb"))
