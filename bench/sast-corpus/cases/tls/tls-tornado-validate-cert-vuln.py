import tornado.web
from tornado.httpclient import AsyncHTTPClient, HTTPRequest


class StatusHandler(tornado.web.RequestHandler):
    async def get(self):
        req = HTTPRequest("https://billing.example.com/status", validate_cert=False, request_timeout=5)
        resp = await AsyncHTTPClient().fetch(req)
        self.write(resp.body)


app = tornado.web.Application([(r"/status", StatusHandler)])
