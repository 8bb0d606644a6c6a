import secrets

from starlette.applications import Starlette
from starlette.responses import RedirectResponse
from starlette.routing import Route


async def login(request):
    resp = RedirectResponse("/", status_code=303)
    resp.set_cookie("session", secrets.token_urlsafe(32), secure=True, httponly=True, samesite="lax")
    return resp


app = Starlette(routes=[Route("/login", login, methods=["POST"])])
