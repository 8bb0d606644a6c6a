import aiohttp
from aiohttp import web

FEEDS = ["https://news.example.com/rss", "https://blog.example.com/atom.xml"]


async def feed(request):
    url = request.query["feed"]
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as resp:
            body = await resp.text()
    return web.Response(text=body, content_type="application/xml")


app = web.Application()
app.router.add_get("/feed", feed)
