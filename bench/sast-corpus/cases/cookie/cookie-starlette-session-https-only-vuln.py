import os

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route


async def home(request):
    request.session["visits"] = request.session.get("visits", 0) + 1
    return PlainTextResponse("hello")


app = Starlette(
    routes=[Route("/", home)],
    middleware=[Middleware(SessionMiddleware, secret_key=os.environ["SESSION_SECRET"])],
)
