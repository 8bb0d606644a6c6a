import json
import pickle

from aiohttp import web


async def restore(request):
    state = json.loads(await request.read())
    return web.json_response({"keys": len(state)})


app = web.Application()
app.router.add_post("/restore", restore)
