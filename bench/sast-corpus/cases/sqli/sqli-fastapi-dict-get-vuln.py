import sqlite3

from fastapi import FastAPI

app = FastAPI()


@app.get("/orders")
def orders(status: str = "open"):
    filters = {"status": status, "region": "eu-west"}
    column = "status"
    sql = f"SELECT id FROM orders WHERE {column} = '{filters.get(column)}'"
    return {"orders": sqlite3.connect("/srv/orders.db").execute(sql).fetchall()}
