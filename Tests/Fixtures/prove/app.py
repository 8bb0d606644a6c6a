"""A small Flask application for `sentinel scan --prove` (Tests/CLITests/ProveCLITests.swift).

Started by the test on 127.0.0.1 (`--port 0 --port-file F`): two flaws a request proves, one
flaw the application's own check keeps out of reach (a length limit the static analysis does not
model), one on a blueprint the application never registers (its route answers 404), one
behind a form's CSRF token (proven when the proof posts the token the page gave), and one whose
handler refuses a post without a second field (proven when it is sent too); one behind a login.
"""

import argparse
import secrets
import sqlite3

from flask import Blueprint, Flask, abort, redirect, request, session

app = Flask(__name__)
app.secret_key = secrets.token_hex(16)
# Never registered with the application: its routes are not served.
admin = Blueprint("admin", __name__)


def database():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE items (name TEXT, code TEXT)")
    db.execute("INSERT INTO items VALUES ('apple', 'a1'), ('pear', 'p2')")
    return db


@app.route("/search")
def search():
    term = request.args.get("q", "")
    rows = database().execute("SELECT name FROM items WHERE name = '" + term + "'").fetchall()
    return {"items": [row[0] for row in rows]}


@app.route("/hello/<name>")
def hello(name):
    return "<h1>Hello " + name + "</h1>"


@app.route("/lookup")
def lookup():
    code = request.args.get("code", "")
    if len(code) > 1:
        abort(400)
    rows = database().execute("SELECT name FROM items WHERE code = '" + code + "'").fetchall()
    return {"items": [row[0] for row in rows]}


@admin.route("/find")
def find():
    term = request.args.get("q", "")
    rows = database().execute("SELECT name FROM items WHERE name = '" + term + "'").fetchall()
    return {"items": [row[0] for row in rows]}


@app.route("/comment", methods=["GET", "POST"])
def comment():
    # A form with a CSRF token: a post without the token the page gave is refused.
    if request.method == "GET":
        session["token"] = secrets.token_hex(8)
        return ('<form method="post" action="/comment"><input type="hidden" name="token" value="%s">'
                '<input name="text"><button>Send</button></form>' % session["token"])
    if not session.get("token") or request.form.get("token") != session["token"]:
        abort(403)
    return "<p>" + request.form["text"] + "</p>"


@app.route("/login", methods=["POST"])
def login():
    # Both fields are required: a post without `password` is refused (400) before the query.
    password = request.form["password"]
    user = request.form["user"]
    rows = database().execute("SELECT name FROM items WHERE name = '" + user + "'").fetchall()
    return {"found": len(rows), "ok": bool(rows) and password == "secret"}


@app.route("/signin", methods=["GET", "POST"])
def signin():
    # The application's own seeded account (the declaration's `prove.login` gives it).
    if request.method == "POST" and request.form.get("user") == "tester" and request.form.get("password") == "seeded-pass-1":
        session["user"] = "tester"
        return redirect("/notes")
    return '<form method="post" action="/signin"><input name="user"><input name="password" type="password"></form>'


@app.route("/notes")
def notes():
    # Behind the login: without a session, the sign-in page.
    if session.get("user") != "tester":
        return redirect("/signin")
    return "<p>Notes for " + request.args.get("q", "") + "</p>"


if __name__ == "__main__":
    from werkzeug.serving import make_server

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    arguments = parser.parse_args()
    server = make_server("127.0.0.1", arguments.port, app, threaded=True)
    if arguments.port_file:
        with open(arguments.port_file, "w") as handle:
            handle.write(str(server.server_port))
    server.serve_forever()
