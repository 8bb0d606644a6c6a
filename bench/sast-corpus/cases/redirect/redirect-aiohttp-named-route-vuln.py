from aiohttp import web


async def index(request):
    return web.Response(text="home")


async def go(request):
    nxt = request.query.get("next", "index")
    location = nxt.split("#")[0]
    raise web.HTTPFound(location)


app = web.Application()
app.router.add_get("/", index, name="index")
app.router.add_get("/go", go)
