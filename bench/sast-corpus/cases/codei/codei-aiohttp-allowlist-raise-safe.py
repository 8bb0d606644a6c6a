from aiohttp import web

OPERATORS = {"min", "max", "sum"}


async def aggregate(request):
    op = request.match_info["op"]
    if op not in OPERATORS:
        raise web.HTTPNotFound()
    values = [int(v) for v in request.query.getall("v", [])]
    result = eval(f"{op}(values)", {"min": min, "max": max, "sum": sum, "values": values})
    return web.json_response({"result": result})


app = web.Application()
app.router.add_get("/agg/{op}", aggregate)
