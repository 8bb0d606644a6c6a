import re

import tornado.web

LOCAL_PATH = re.compile(r"/([a-z0-9_-]+/?)*")


class ContinueHandler(tornado.web.RequestHandler):
    def get(self):
        nxt = self.get_argument("next", "/")
        if not LOCAL_PATH.match(nxt):
            nxt = "/"
        self.redirect(nxt)


app = tornado.web.Application([(r"/continue", ContinueHandler)])
