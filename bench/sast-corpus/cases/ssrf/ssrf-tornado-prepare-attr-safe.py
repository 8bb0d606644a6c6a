import tornado.web
from tornado.httpclient import AsyncHTTPClient


class NotifyHandler(tornado.web.RequestHandler):
    def prepare(self):
        self.callback_url = self.settings["callback_url"]

    async def post(self):
        client = AsyncHTTPClient()
        resp = await client.fetch(self.callback_url, method="POST", body=self.request.body)
        self.write({"code": resp.code})


app = tornado.web.Application([(r"/notify", NotifyHandler)], callback_url="https://hooks.example.com/n")
