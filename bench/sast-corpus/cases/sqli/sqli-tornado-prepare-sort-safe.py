import sqlite3

import tornado.web

COLUMNS = {"name": "name", "price": "price", "newest": "created_at"}


class ProductsHandler(tornado.web.RequestHandler):
    def prepare(self):
        sort = self.get_argument("sort", "name")
        self.order_by = COLUMNS.get(sort, "name")

    def get(self):
        db = sqlite3.connect("/srv/shop.db")
        rows = db.execute("SELECT id, name, price FROM products ORDER BY " + self.order_by).fetchall()
        self.write({"products": rows})


app = tornado.web.Application([(r"/products", ProductsHandler)])
