import sqlite3

from flask import Flask, request

app = Flask(__name__)


@app.route("/tickets")
def tickets():
    owner = request.args.get("owner", "")
    query = "SELECT id, title FROM tickets WHERE status = 'open'"
    if False:
        query += " AND owner = '" + owner + "'"
    conn = sqlite3.connect("/srv/tickets.db")
    return {"tickets": conn.execute(query).fetchall()}
