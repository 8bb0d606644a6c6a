from aiohttp import web


class GreetView(web.View):
    async def get(self):
        name = self.request.query.get("name", "guest")
        return web.Response(text=f"<p>Hello {name}</p>", content_type="text/plain")


app = web.Application()
app.router.add_view("/greet", GreetView)
