import sqlite3

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route


async def cheaper_than(request):
    limit = float(request.path_params["price"])
    db = sqlite3.connect("/srv/shop.db")
    rows = db.execute(f"SELECT name FROM products WHERE price < {limit}").fetchall()
    return JSONResponse({"products": rows})


app = Starlette(routes=[Route("/cheaper/{price}", cheaper_than)])
