import os

import tornado.web

ROOT = "/srv/docs"


class DocHandler(tornado.web.RequestHandler):
    def get(self):
        full = os.path.join(ROOT, self.get_argument("p"))
        if not full.startswith(ROOT + os.sep):
            raise tornado.web.HTTPError(403)
        with open(full, "rb") as fh:
            self.write(fh.read())


app = tornado.web.Application([(r"/doc", DocHandler)])
