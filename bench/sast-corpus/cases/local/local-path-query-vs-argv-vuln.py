import os
import sys

import tornado.web

BASE = "/srv/exports"


class ExportHandler(tornado.web.RequestHandler):
    def get(self):
        name = self.get_argument("name")
        with open(os.path.join(BASE, name), "rb") as fh:
            self.write(fh.read())
