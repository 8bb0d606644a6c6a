import shlex
import subprocess

from aiohttp import web


class ThumbnailView(web.View):
    async def post(self):
        size = self.request.query.get("size", "128x128")
        cmd = "convert /srv/uploads/current.png -resize " + shlex.quote(size) + " /srv/thumbs/current.png"
        subprocess.run(cmd, shell=True, check=True)
        return web.json_response({"ok": True})


app = web.Application()
app.router.add_view("/thumbnail", ThumbnailView)
