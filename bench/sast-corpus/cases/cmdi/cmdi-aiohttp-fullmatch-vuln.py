import asyncio
import re

from aiohttp import web

HOST_RE = re.compile(r"[a-z0-9.-]+")


async def dig(request):
    host = request.query.get("host", "")
    if not HOST_RE.match(host):
        raise web.HTTPBadRequest(text="bad host")
    proc = await asyncio.create_subprocess_shell("dig +short " + host, stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    return web.Response(text=out.decode())


app = web.Application()
app.router.add_get("/dig", dig)
