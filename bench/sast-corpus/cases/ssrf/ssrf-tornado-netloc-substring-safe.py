from urllib.parse import urlparse

import tornado.web
from tornado.httpclient import AsyncHTTPClient

PARTNER_HOST = "api.partner.example"


class RelayHandler(tornado.web.RequestHandler):
    async def post(self):
        target = self.get_body_argument("target")
        parsed = urlparse(target)
        if parsed.scheme != "https" or parsed.hostname != PARTNER_HOST:
            raise tornado.web.HTTPError(403)
        resp = await AsyncHTTPClient().fetch(target, method="POST", body=self.request.body)
        self.write({"code": resp.code})


app = tornado.web.Application([(r"/relay", RelayHandler)])
