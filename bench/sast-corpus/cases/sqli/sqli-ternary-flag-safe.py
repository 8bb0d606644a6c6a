import sqlite3

from flask import Flask, request

app = Flask(__name__)

RAW_STATUS_FILTER = False


@app.route("/issues")
def issues():
    status = request.args.get("status", "open")
    clause = f"status = '{status}'" if RAW_STATUS_FILTER else "status = 'open'"
    db = sqlite3.connect("/srv/issues.db")
    rows = db.execute("SELECT id, title FROM issues WHERE " + clause).fetchall()
    return {"issues": rows}
