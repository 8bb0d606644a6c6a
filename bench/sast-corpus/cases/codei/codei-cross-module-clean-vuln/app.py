from flask import Flask, request

from helpers.utils import clean

app = Flask(__name__)


@app.route("/eval")
def evaluate():
    expr = clean(request.args.get("q", "0"))
    return str(eval(expr))
