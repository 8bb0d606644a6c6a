import os

from flask import Flask, request
from werkzeug.utils import secure_filename

app = Flask(__name__)
UPLOAD_DIR = "/srv/uploads"


@app.post("/upload")
def upload():
    f = request.files["document"]
    filename = secure_filename(f.filename)
    f.save(os.path.join(UPLOAD_DIR, filename))
    return {"stored": filename}, 201
