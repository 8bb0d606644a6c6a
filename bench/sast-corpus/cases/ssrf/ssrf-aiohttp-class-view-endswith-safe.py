from urllib.parse import urlsplit

import aiohttp
from aiohttp import web


class AvatarView(web.View):
    async def get(self):
        src = self.request.query.get("src", "")
        host = urlsplit(src).hostname or ""
        if not host == "avatars.example.com":
            raise web.HTTPBadRequest()
        async with aiohttp.ClientSession() as session:
            async with session.get(src) as resp:
                body = await resp.read()
        return web.Response(body=body, content_type="image/png")


app = web.Application()
app.router.add_view("/avatar", AvatarView)
