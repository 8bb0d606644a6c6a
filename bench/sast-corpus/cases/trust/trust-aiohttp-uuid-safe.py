import uuid

from aiohttp import web
from aiohttp_session import get_session


async def use_cart(request):
    session = await get_session(request)
    cart = request.match_info["cart"]
    session["cart"] = str(uuid.UUID(cart))
    return web.json_response({"cart": session["cart"]})


app = web.Application()
app.router.add_post("/cart/{cart}", use_cart)
