import sqlite3

from flask import Flask, request

app = Flask(__name__)


@app.route("/search")
def search():
    conditions = ["active = 1"]
    params = []
    q = request.args.get("q")
    if q:
        conditions.append("name LIKE ?")
        params.append(f"%{q}%")
    sql = "SELECT id, name FROM products WHERE " + " AND ".join(conditions)
    rows = sqlite3.connect("/srv/shop.db").execute(sql, params).fetchall()
    return {"products": rows}
