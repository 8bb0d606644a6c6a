import os

from starlette.applications import Starlette
from starlette.responses import FileResponse
from starlette.routing import Route

LOCALES = "/srv/locales"
SUPPORTED = {"en", "de", "fr"}


def locale_file(lang):
    return lang + ".json"


async def translations(request):
    name = locale_file(request.query_params.get("lang", "en"))
    return FileResponse(os.path.join(LOCALES, name))


app = Starlette(routes=[Route("/i18n", translations)])
