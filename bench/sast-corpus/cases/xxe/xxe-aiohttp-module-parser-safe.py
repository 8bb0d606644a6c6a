from aiohttp import web
from lxml import etree

PARSER = etree.XMLParser(resolve_entities=False, load_dtd=False)


def parse_invoice(data):
    return etree.fromstring(data, PARSER)


async def invoice(request):
    root = parse_invoice(await request.read())
    return web.json_response({"total": root.findtext("total")})


app = web.Application()
app.router.add_post("/invoice", invoice)
