from aiohttp import web

from helpers.utils import load


async def restore(request):
    snapshot = load(await request.read())
    return web.json_response({"entries": len(snapshot)})


app = web.Application()
app.router.add_post("/restore", restore)
