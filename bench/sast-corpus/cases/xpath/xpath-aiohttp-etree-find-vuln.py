import xml.etree.ElementTree as ET

from aiohttp import web

TREE = ET.parse("/srv/menu.xml")
SECTIONS = {"starters", "mains", "desserts"}


async def menu(request):
    section = request.match_info["section"]
    items = TREE.getroot().findall(f".//section[@name='{section}']/item")
    return web.json_response([i.text for i in items])


app = web.Application()
app.router.add_get("/menu/{section}", menu)
