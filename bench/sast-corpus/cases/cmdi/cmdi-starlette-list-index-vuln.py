import os

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route


async def count_lines(request):
    files = [request.query_params["file"], "/var/log/app.log"]
    stream = os.popen("wc -l " + files[0])
    return PlainTextResponse(stream.read())


app = Starlette(routes=[Route("/lines", count_lines)])
