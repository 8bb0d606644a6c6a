from aiohttp import web
from lxml import etree

RESOLVE_ENTITIES = False


async def upload(request):
    parser = etree.XMLParser(resolve_entities=RESOLVE_ENTITIES, no_network=True)
    root = etree.fromstring(await request.read(), parser)
    return web.json_response({"root": root.tag})


app = web.Application()
app.router.add_post("/upload", upload)
