from aiohttp import web
from aiohttp_session import get_session


def remember(session, key, value):
    session[key] = value
    return value


async def impersonate(request):
    session = await get_session(request)
    remember(session, "acting_as", "self")
    return web.json_response({"ok": True})


app = web.Application()
app.router.add_post("/act", impersonate)
