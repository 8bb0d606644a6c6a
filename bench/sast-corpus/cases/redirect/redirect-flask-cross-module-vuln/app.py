from flask import Flask, redirect, request

from helpers.utils import clean

app = Flask(__name__)


@app.route("/back")
def back():
    return redirect(clean(request.args.get("url", "/")))
