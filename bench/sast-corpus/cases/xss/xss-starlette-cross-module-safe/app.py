from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from helpers.utils import clean


async def comment(request):
    text = clean(request.query_params.get("text", ""))
    return HTMLResponse(f"<blockquote>{text}</blockquote>")


app = Starlette(routes=[Route("/comment", comment)])
