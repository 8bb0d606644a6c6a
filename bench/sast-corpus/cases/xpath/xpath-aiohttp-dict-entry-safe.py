from aiohttp import web
from lxml import etree

STAFF = etree.parse("/srv/staff.xml")


async def staff(request):
    params = {"role": request.query.get("role", ""), "dept": "sales"}
    expr = "//employee[@dept='%s']/name/text()" % params["dept"]
    names = STAFF.xpath(expr)
    return web.json_response([str(n) for n in names])


app = web.Application()
app.router.add_get("/staff", staff)
