from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import JSONResponse
from starlette.routing import Route

DEFAULT_TENANT = "public"


async def select_tenant(request):
    tenant = DEFAULT_TENANT
    request.session["tenant"] = tenant
    return JSONResponse({"tenant": tenant})


app = Starlette(
    routes=[Route("/tenant", select_tenant)],
    middleware=[Middleware(SessionMiddleware, secret_key="from-env")],
)
