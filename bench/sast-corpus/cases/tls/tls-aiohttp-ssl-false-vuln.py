import ssl

import aiohttp
from aiohttp import web

SSL_CTX = ssl.create_default_context()


async def weather(request):
    async with aiohttp.ClientSession() as session:
        async with session.get("https://api.weather.example.com/now", ssl=False) as resp:
            data = await resp.json()
    return web.json_response(data)


app = web.Application()
app.router.add_get("/weather", weather)
