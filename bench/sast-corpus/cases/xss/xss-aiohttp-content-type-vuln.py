from aiohttp import web


async def hello(request):
    name = request.match_info.get("name", "anonymous")
    return web.Response(text=f"<h1>Hello {name}</h1>", content_type="text/html")


app = web.Application()
app.router.add_get("/hello/{name}", hello)
