import tarfile

from flask import Flask, request

app = Flask(__name__)
DEST = "/srv/imports"


@app.post("/import")
def import_bundle():
    with tarfile.open(fileobj=request.files["bundle"].stream, mode="r:gz") as tar:
        tar.extractall(DEST, filter="data")
    return "imported", 201
