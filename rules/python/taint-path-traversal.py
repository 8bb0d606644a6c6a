import os

from flask import Flask, request, send_file
from werkzeug.utils import secure_filename

app = Flask(__name__)
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
