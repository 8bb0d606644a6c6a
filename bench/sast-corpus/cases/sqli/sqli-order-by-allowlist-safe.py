import sqlite3

from flask import Flask, request

app = Flask(__name__)
SORTABLE = {"name", "created", "price"}


@app.route("/items")
def items():
    sort = request.args.get("sort", "")
    if sort not in SORTABLE:
        sort = "created"
    db = sqlite3.connect("/srv/shop.db")
    rows = db.execute("SELECT id, name FROM items ORDER BY " + sort).fetchall()
    return {"items": rows}
