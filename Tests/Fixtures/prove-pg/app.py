"""A Flask application on PostgreSQL (issue 80's `prove.database`): the server the proof
starts beside it is named by DATABASE_URL; the table is made at start."""

import os
import sys

import psycopg2
from flask import Flask, request

app = Flask(__name__)


def connect():
    return psycopg2.connect(os.environ["DATABASE_URL"])


@app.route("/search")
def search():
    term = request.args.get("q", "")
    with connect() as connection, connection.cursor() as cursor:
        cursor.execute("SELECT name FROM items WHERE name = '" + term + "'")
        return {"items": [row[0] for row in cursor.fetchall()]}


@app.route("/safe")
def safe():
    term = request.args.get("q", "")
    with connect() as connection, connection.cursor() as cursor:
        cursor.execute("SELECT name FROM items WHERE name = %s", (term,))
        return {"items": [row[0] for row in cursor.fetchall()]}


if __name__ == "__main__":
    with connect() as connection, connection.cursor() as cursor:
        cursor.execute("CREATE TABLE items (name TEXT)")
        cursor.execute("INSERT INTO items VALUES ('apple'), ('pear')")
    print("items made in", os.environ["PGDATABASE"], file=sys.stderr)
    app.run(host="127.0.0.1", port=int(sys.argv[1]))
