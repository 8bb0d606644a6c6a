import os
import sys

import tornado.web

BASE = "/srv/exports"


class ExportHandler(tornado.web.RequestHandler):
    def get(self):
        name = sys.argv[1]
        with open(os.path.join(BASE, name), "rb") as fh:
            self.write(fh.read())
