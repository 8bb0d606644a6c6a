import html

from flask import Flask, request

app = Flask(__name__)


@app.route("/bio")
def bio():
    text = request.args.get("bio", "")
    cleaned = html.escape(text)
    return "<div class='bio'>" + cleaned + "</div>"
