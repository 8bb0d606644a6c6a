import sqlite3

from django.db import connection
from flask import Flask, request

app = Flask(__name__)


@app.route("/user")
def user():
    name = request.args.get("name")
    conn = sqlite3.connect("app.db")
    cur = conn.cursor()
    # ruleid: python.taint-sql-injection
    cur.execute("SELECT * FROM users WHERE name = '%s'" % name)
    # ok: python.taint-sql-injection
    cur.execute("SELECT * FROM users WHERE name = ?", (name,))
    query = "SELECT * FROM orders WHERE owner = '" + name + "'"
    # ruleid: python.taint-sql-injection
    cur.execute(query)
    return str(cur.fetchall())


def search(request):
    term = request.GET["q"]
    with connection.cursor() as cursor:
        # ruleid: python.taint-sql-injection
        cursor.execute(f"SELECT id FROM products WHERE title LIKE '%{term}%'")
        # ok: python.taint-sql-injection
        cursor.execute("SELECT id FROM products WHERE title LIKE %s", ["%" + term + "%"])
        rows = cursor.fetchall()
    # ruleid: python.taint-sql-injection
    Product.objects.raw("SELECT * FROM shop_product WHERE sku = '{}'".format(term))
    page = int(request.GET.get("page", 1))
    # ok: python.taint-sql-injection
    Product.objects.raw("SELECT * FROM shop_product LIMIT 20 OFFSET %d" % (page * 20))
    return rows
