import sqlite3

from flask import Flask, g, request

app = Flask(__name__)


def get_db():
    if "db" not in g:
        g.db = sqlite3.connect("/srv/app.db")
    return g.db


@app.route("/users")
def find_user():
    name = request.args.get("name", "")
    cur = get_db().cursor()
    cur.execute("SELECT id, email FROM users WHERE name = '%s'" % name)
    return {"users": cur.fetchall()}
