import sqlite3

from flask import Flask, request

from helpers.utils import clean

app = Flask(__name__)


@app.route("/city")
def city():
    name = clean(request.args.get("name", ""))
    db = sqlite3.connect("/srv/geo.db")
    row = db.execute(f"SELECT lat, lon FROM cities WHERE name = '{name}'").fetchone()
    return {"city": row}
