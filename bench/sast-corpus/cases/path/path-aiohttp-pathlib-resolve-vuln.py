from pathlib import Path

from aiohttp import web

ROOT = Path("/srv/shared").resolve()


async def shared_file(request):
    target = (ROOT / request.query["name"])
    if not target.is_relative_to(ROOT):
        raise web.HTTPForbidden()
    return web.Response(body=target.read_bytes())


app = web.Application()
app.router.add_get("/shared", shared_file)
