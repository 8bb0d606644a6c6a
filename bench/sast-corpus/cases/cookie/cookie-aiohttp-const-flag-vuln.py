import secrets

from aiohttp import web

COOKIE_SECURE = False


async def login(request):
    resp = web.json_response({"ok": True})
    resp.set_cookie("sid", secrets.token_hex(16), secure=COOKIE_SECURE, httponly=True, samesite="Lax")
    return resp


app = web.Application()
app.router.add_post("/login", login)
