import hashlib
import os

from aiohttp import web

from .store import save_credentials


async def register(request):
    form = await request.post()
    salt = os.urandom(16)
    password = form["password"].encode()
    digest = hashlib.scrypt(password, salt=salt, n=2**14, r=8, p=1).hex()
    await save_credentials(form["user"], salt, digest)
    return web.json_response({"ok": True}, status=201)


app = web.Application()
app.router.add_post("/register", register)
