import os
import sqlite3

from flask import Flask, request

app = Flask(__name__)


@app.route("/stats")
def stats():
    table = request.args.get("table", "events")
    db = sqlite3.connect("/srv/stats.db")
    (count,) = db.execute(f"SELECT count(*) FROM {table}").fetchone()
    return {"count": count}
