import glob
import os
import pathlib
import shutil
import urllib.parse
from enum import Enum
from http.server import BaseHTTPRequestHandler

import aiofiles
import tornado.web
from aiohttp import web
from django.conf import settings
from django.http import FileResponse
from django.utils._os import safe_join as django_safe_join
from django.views import View
from fastapi import FastAPI, UploadFile
from flask import Flask, request, send_file, send_from_directory
from starlette.responses import FileResponse as StarletteFileResponse
from werkzeug.security import safe_join
from werkzeug.utils import secure_filename

app = Flask(__name__)
api = FastAPI()
UPLOADS = "/srv/uploads"


@app.route("/download")
def download():
    name = request.args["file"]
    # ruleid: python.taint-path-traversal
    return send_file(os.path.join(UPLOADS, name))


@app.route("/download-safe")
def download_safe():
    name = os.path.basename(request.args["file"])
    # ok: python.taint-path-traversal
    return send_file(os.path.join(UPLOADS, name))


@app.route("/upload", methods=["POST"])
def upload():
    f = request.files["doc"]
    # ok: python.taint-path-traversal
    f.save(os.path.join(UPLOADS, secure_filename(f.filename)))
    # ruleid: python.taint-path-traversal
    with open(UPLOADS + "/" + f.filename, "wb") as out:
        out.write(f.read())
    return "saved"


def read_report(request):
    report = request.GET.get("report")
    # ruleid: python.taint-path-traversal
    data = open("/var/reports/%s.csv" % report).read()
    # ok: python.taint-path-traversal
    template = open("/var/reports/template.csv").read()
    return data + template


@app.route("/static-files/<path:name>")
def static_files(name):
    # ok: python.taint-path-traversal
    return send_from_directory(UPLOADS, name)


@app.route("/raw/<path:name>")
def raw_file(name):
    # ruleid: python.taint-path-traversal
    return send_file(UPLOADS + "/" + name)


@app.route("/joined/<path:name>")
def joined(name):
    # ok: python.taint-path-traversal
    return send_file(safe_join(UPLOADS, name))


class AttachmentView(View):
    def get(self, request, filename):
        # ruleid: python.taint-path-traversal
        return FileResponse(open(os.path.join(settings.MEDIA_ROOT, filename), "rb"))


def django_safe(request, filename):
    path = django_safe_join(settings.MEDIA_ROOT, filename)
    # ok: python.taint-path-traversal
    return FileResponse(open(path, "rb"))


# A path segment holds no '/' (the router stops there): `..` names the directory above, no file.
@api.get("/exports/{name}")
async def export(name: str):
    # ok: python.taint-path-traversal
    return StarletteFileResponse(f"/srv/exports/{name}")


@api.get("/exports-any/{name:path}")
async def export_any(name: str):
    # ruleid: python.taint-path-traversal
    return StarletteFileResponse(f"/srv/exports/{name}")


@api.delete("/cache/{key}")
async def drop_cache(key: str):
    # ok: python.taint-path-traversal
    os.remove(os.path.join("/var/cache/app", key))


@api.delete("/cache")
async def drop_cache_by_query(key: str):
    # ruleid: python.taint-path-traversal
    os.remove(os.path.join("/var/cache/app", key))
    # ok: python.taint-path-traversal
    os.remove(os.path.join("/var/cache/app", os.path.basename(key)))
    return {"deleted": key}


class LogHandler(tornado.web.RequestHandler):
    def get(self):
        name = self.get_query_argument("name")
        # ruleid: python.taint-path-traversal
        with open(os.path.join("/var/log/app", name)) as fh:
            self.write(fh.read())


class ArchiveHandler(tornado.web.RequestHandler):
    def post(self):
        target = self.get_body_argument("target")
        # ruleid: python.taint-path-traversal
        shutil.move("/srv/incoming/latest.tgz", target)


async def aiohttp_download(request):
    name = request.match_info["name"]
    # ruleid: python.taint-path-traversal
    return web.FileResponse(pathlib.Path("/srv/files") / name)


async def aiohttp_upload(request):
    reader = await request.multipart()
    part = await reader.next()
    # ruleid: python.taint-path-traversal
    async with aiofiles.open(os.path.join("/srv/files", part.filename), "wb") as out:
        await out.write(await part.read())
    # ok: python.taint-path-traversal
    async with aiofiles.open(os.path.join("/srv/files", secure_filename(part.filename)), "wb") as out:
        await out.write(b"")
    return web.Response(text="stored")


class FileServer(BaseHTTPRequestHandler):
    def do_GET(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        # ruleid: python.taint-path-traversal
        with open("/srv/files/" + query["name"][0], "rb") as fh:
            self.wfile.write(fh.read())
        # ok: python.taint-path-traversal
        with open("/srv/files/index.html", "rb") as fh:
            self.wfile.write(fh.read())


@app.route("/ext")
def extension():
    url = request.args["url"]
    # A Path made only to read the suffix opens nothing.
    # ok: python.taint-path-traversal
    ext = pathlib.Path(url).suffix
    # ruleid: python.taint-path-traversal
    body = pathlib.Path(url).read_bytes()
    return ext + body.decode()


async def aiohttp_shared(request):
    target = pathlib.Path("/srv/shared") / request.query["name"]
    # ruleid: python.taint-path-traversal
    return web.Response(body=target.read_bytes())


# A route's path segment holds no '/': `..` at most names the parent, with the rest of the path
# fixed (issue 55). A `path` converter, or a query parameter, can carry any path.
@app.route("/avatars/<name>")
def avatar(name):
    # ok: python.taint-path-traversal
    return send_file(os.path.join("/srv/avatars", name, "avatar.png"))


@app.route("/docs/<path:name>")
def docs(name):
    # ruleid: python.taint-path-traversal
    return send_file(os.path.join("/srv/docs", name))


@app.route("/avatars-by-query")
def avatar_by_query():
    # ruleid: python.taint-path-traversal
    return send_file(os.path.join("/srv/avatars", request.args["name"]))


class ImageSize(str, Enum):
    small = "small.webp"
    large = "large.webp"


@api.get("/images")
async def image(size: ImageSize, name: str):
    # An enumeration's members are the only values FastAPI accepts.
    # ok: python.taint-path-traversal
    image_file = open(os.path.join("/srv/images", size.value), "rb")
    # ruleid: python.taint-path-traversal
    other = open(os.path.join("/srv/images", name), "rb")
    return image_file, other


@app.route("/upload", methods=["POST"])
def upload():
    upload = request.files["file"]
    # ruleid: python.taint-path-traversal
    upload.save(os.path.join("/srv/uploads", upload.filename))
    # ok: python.taint-path-traversal
    upload.save(os.path.join("/srv/uploads", secure_filename(upload.filename)))
    return "ok"


@app.route("/keys")
def keys():
    user = request.args["user"]
    # ruleid: python.taint-path-traversal
    found = list(pathlib.Path("/srv/keys").glob("key." + user + ".*"))
    # ruleid: python.taint-path-traversal
    more = glob.glob("/srv/keys/" + user + "*")
    return str(found + more)


@app.route("/attach", methods=["POST"])
def attach():
    upload = request.files["file"]
    # Django's storages validate the name they are given.
    # ok: python.taint-path-traversal
    default_storage.save(upload.filename, upload)
    return "ok"


@app.route("/thumbnail", methods=["POST"])
def thumbnail():
    image = load_image(request.files["image"])
    # ruleid: python.taint-path-traversal
    image.save("/srv/thumbs/" + request.form["name"], "PNG")
    # ruleid: python.taint-path-traversal
    image.save("/srv/thumbs/" + request.form["name"], format="WEBP", quality=80)
    return "ok"


@api.post("/avatar")
def avatar(upload: UploadFile):
    target = pathlib.Path("/srv/avatars").joinpath(upload.filename)
    # ruleid: python.taint-path-traversal
    with target.open("wb") as out:
        out.write(upload.file.read())
    # ok: python.taint-path-traversal
    with pathlib.Path("/srv/avatars/default.png").open("rb") as default:
        default.read()
    # A zip member's name is not a mode: the archive is opened, not a path.
    # ok: python.taint-path-traversal
    archive.open(upload.filename)
    return "ok"


@api.post("/backup")
def backup(upload: UploadFile, label: str):
    stem = pathlib.Path(upload.filename).stem
    # ok: python.taint-path-traversal
    with pathlib.Path("/srv/backups").joinpath(stem + ".zip").open("wb") as out:
        out.write(upload.file.read())
    dest = pathlib.Path("/srv/backups") / (label + ".zip")
    if dest.absolute().parent != pathlib.Path("/srv/backups"):
        raise ValueError("not one name in the backup directory")
    # ok: python.taint-path-traversal
    with dest.open("wb") as out:
        out.write(upload.file.read())
    other = pathlib.Path("/srv/backups") / label
    if other.exists():
        # ruleid: python.taint-path-traversal
        other.write_bytes(upload.file.read())
    return "ok"
