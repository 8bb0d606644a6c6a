import os
import sqlite3

from flask import Flask, request

app = Flask(__name__)


@app.route("/stats")
def stats():
    table = os.environ.get("STATS_TABLE", "events")
    db = sqlite3.connect("/srv/stats.db")
    (count,) = db.execute(f"SELECT count(*) FROM {table}").fetchone()
    return {"count": count}
