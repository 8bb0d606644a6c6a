import asyncio
import random
import secrets

from aiohttp import web


def rand_fraction():
    return random.random()


async def invite(request):
    await asyncio.sleep(0.1 * rand_fraction())
    token = str(rand_fraction())[2:]
    return web.json_response({"invite": token})


app = web.Application()
app.router.add_post("/invite", invite)
