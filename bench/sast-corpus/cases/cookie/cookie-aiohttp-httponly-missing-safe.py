import secrets

from aiohttp import web


async def issue(request):
    resp = web.json_response({"ok": True})
    resp.set_cookie("api_token", secrets.token_urlsafe(32), secure=True, httponly=True, samesite="Strict")
    return resp


app = web.Application()
app.router.add_post("/token", issue)
