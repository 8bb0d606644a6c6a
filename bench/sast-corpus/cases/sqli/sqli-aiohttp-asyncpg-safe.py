from aiohttp import web


async def invoice(request):
    number = request.match_info["number"]
    pool = request.app["pool"]
    async with pool.acquire() as conn:
        row = await conn.fetchrow("SELECT total, status FROM invoices WHERE number = $1", number)
    if row is None:
        raise web.HTTPNotFound()
    return web.json_response(dict(row))


app = web.Application()
app.router.add_get("/invoices/{number}", invoice)
