import os
import sqlite3

import aiosqlite
import pandas
import psycopg2.sql
import tornado.web
from aiohttp import web
from django.db import connection
from django.views.generic import ListView
from fastapi import Depends, FastAPI
from flask import Flask, request
from rest_framework.response import Response
from rest_framework.views import APIView
from sqlalchemy import select, text
from sqlalchemy.orm import Session

app = Flask(__name__)
api = FastAPI()


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


class OrderListView(ListView):
    def get_queryset(self):
        status = self.request.GET.get("status", "open")
        # ruleid: python.taint-sql-injection
        return Order.objects.filter(shop=1).extra(where=["status = '%s'" % status])


class OrderDetail(APIView):
    def get(self, request, reference):
        with connection.cursor() as cursor:
            # ruleid: python.taint-sql-injection
            cursor.execute("SELECT * FROM orders WHERE ref = '" + reference + "'")
            # ok: python.taint-sql-injection
            cursor.execute("SELECT * FROM orders WHERE ref = %s", [reference])
            return Response(cursor.fetchone())


@api.get("/items")
def items(sort: str, limit: int, db: Session = Depends(get_db)):
    # ruleid: python.taint-sql-injection
    rows = db.execute(text(f"SELECT * FROM items ORDER BY {sort} LIMIT {limit}"))
    # ok: python.taint-sql-injection
    rows2 = db.execute(text("SELECT * FROM items LIMIT :limit"), {"limit": limit})
    return [dict(r) for r in rows] + [dict(r) for r in rows2]


@api.get("/tables/{table}")
async def table_rows(table: str, conn=Depends(get_pg)):
    # ok: python.taint-sql-injection
    query = psycopg2.sql.SQL("SELECT * FROM {}").format(psycopg2.sql.Identifier(table))
    cur = conn.cursor()
    cur.execute(query)
    return cur.fetchall()


class SearchHandler(tornado.web.RequestHandler):
    async def get(self):
        term = self.get_argument("q")
        # ruleid: python.taint-sql-injection
        rows = await self.application.pool.execute("SELECT id FROM docs WHERE body LIKE '%" + term + "%'")
        self.write({"ids": [r[0] for r in rows]})


async def aiohttp_user(request):
    user_id = request.query["id"]
    async with aiosqlite.connect("app.db") as db:
        # ruleid: python.taint-sql-injection
        cur = await db.execute(f"SELECT name FROM users WHERE id = {user_id}")
        # ok: python.taint-sql-injection
        cur2 = await db.execute("SELECT name FROM users WHERE id = ?", (user_id,))
        return web.json_response({"a": await cur.fetchone(), "b": await cur2.fetchone()})


def report(engine):
    region = os.environ.get("REPORT_REGION", "eu")
    # ruleid: python.taint-sql-injection
    return pandas.read_sql_query("SELECT * FROM sales WHERE region = '%s'" % region, engine)


def call_command(command, *args, **options):
    parser = command.create_parser("manage.py", "cmd")
    defaults = parser.parse_args(args)
    # ok: python.taint-sql-injection
    return command.execute(*args, **vars(defaults))


@app.route("/topics/move", methods=["POST"])
def move_topics(db, Topic):
    ids = request.form.getlist("topic_id")
    # ok: python.taint-sql-injection
    moved = db.session.execute(db.select(Topic).where(Topic.id.in_(ids))).scalars()
    # ok: python.taint-sql-injection
    first = db.session.execute(select(Topic).filter_by(id=request.args["id"])).scalar()
    # ruleid: python.taint-sql-injection
    raw = db.session.execute(select(Topic).where(text("id = " + request.args["id"]))).scalar()
    # ok: python.taint-sql-injection
    page = db.session.execute(select(Topic).limit(request.args["n"]).offset(request.args["from"])).all()
    return str((moved, first, raw, page))
