import html

from flask import Flask, make_response, request

app = Flask(__name__)


@app.route("/welcome")
def welcome():
    name = request.cookies.get("display_name", "friend")
    resp = make_response("<h1>Welcome back, " + name + "</h1>")
    resp.headers["Cache-Control"] = "no-store"
    return resp
