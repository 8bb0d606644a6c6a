from flask import Flask, request
from markupsafe import escape

app = Flask(__name__)


def highlight(term):
    return "<mark>" + str(escape(term)) + "</mark>"


@app.route("/find")
def find():
    term = request.args.get("term", "")
    return "<p>Matches for " + highlight(term) + "</p>"
