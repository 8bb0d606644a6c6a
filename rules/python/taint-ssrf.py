import http.client
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler

import aiohttp
import httpx
import requests
import tornado.httpclient
import tornado.web
from aiohttp import web
from fastapi import FastAPI
from flask import Flask, request
from rest_framework.response import Response
from rest_framework.views import APIView

app = Flask(__name__)
api = FastAPI()


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


class LinkPreview(APIView):
    def post(self, request):
        target = request.data["url"]
        with requests.Session() as session:
            # ruleid: python.taint-ssrf
            page = session.get(target, timeout=5)
            # ok: python.taint-ssrf
            meta = session.get("https://meta.example.com/v1/lookup", params={"u": target}, timeout=5)
        return Response({"title": page.text[:80], "meta": meta.json()})


@api.get("/proxy")
async def proxy(url: str):
    async with httpx.AsyncClient() as client:
        # ruleid: python.taint-ssrf
        resp = await client.get(url)
        # ok: python.taint-ssrf
        status = await client.get("https://status.example.com/" + urllib.parse.quote(url))
    return {"status": resp.status_code, "upstream": status.status_code}


@api.get("/health/{port}")
async def health(port: int):
    # ok: python.taint-ssrf
    return {"up": httpx.get("http://127.0.0.1:%d/health" % port).status_code}


class FetchHandler(tornado.web.RequestHandler):
    async def get(self):
        # ruleid: python.taint-ssrf
        response = await tornado.httpclient.AsyncHTTPClient().fetch(self.get_argument("url"))
        self.write(response.body)

    async def post(self):
        client = tornado.httpclient.AsyncHTTPClient()
        # ruleid: python.taint-ssrf
        req = tornado.httpclient.HTTPRequest(self.get_body_argument("url"), request_timeout=5)
        response = await client.fetch(req)
        self.write(response.body)


async def aiohttp_fetch(request):
    target = request.query.get("target")
    async with aiohttp.ClientSession() as session:
        # ruleid: python.taint-ssrf
        async with session.get(target) as resp:
            body = await resp.text()
        cache = {}
        # ok: python.taint-ssrf
        cached = cache.get(target)
    return web.Response(text=body + str(cached))


class WebhookTester(BaseHTTPRequestHandler):
    def do_POST(self):
        host = self.rfile.read(int(self.headers["Content-Length"])).decode()
        # ruleid: python.taint-ssrf
        conn = http.client.HTTPSConnection(host, timeout=5)
        conn.request("GET", "/")


ALLOWED_HOSTS = {"images.example.com"}
BLOCKED_HOSTS = {"localhost", "169.254.169.254"}


@app.route("/fetch/allow")
def fetch_allow_listed():
    url = request.args.get("url", "")
    if urllib.parse.urlparse(url).hostname not in ALLOWED_HOSTS:
        return "forbidden", 403
    # ok: python.taint-ssrf
    return requests.get(url, timeout=5).text


@app.route("/fetch/split")
def fetch_allow_listed_split():
    url = request.args.get("url", "")
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme != "https" or parsed.hostname != "images.example.com":
        return "forbidden", 403
    # ok: python.taint-ssrf
    return requests.get(url, timeout=5).text


@app.route("/fetch/deny")
def fetch_deny_listed():
    url = request.args.get("url", "")
    host = urllib.parse.urlparse(url).hostname
    if host in BLOCKED_HOSTS:
        return "forbidden", 403
    # ruleid: python.taint-ssrf
    return requests.get(url, timeout=5).text


@app.route("/fetch/suffix")
def fetch_suffix():
    url = request.args.get("url", "")
    host = urllib.parse.urlparse(url).hostname or ""
    if not host.endswith("example.com"):
        return "forbidden", 403
    # ruleid: python.taint-ssrf
    return requests.get(url, timeout=5).text


@app.route("/fetch/path-only")
def fetch_path_checked():
    url = request.args.get("url", "")
    if urllib.parse.urlparse(url).path not in {"/a", "/b"}:
        return "forbidden", 403
    # ruleid: python.taint-ssrf
    return requests.get(url, timeout=5).text
