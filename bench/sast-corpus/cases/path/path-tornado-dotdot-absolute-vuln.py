import os

import tornado.web

THEMES = "/srv/themes"


class ThemeHandler(tornado.web.RequestHandler):
    def get(self):
        name = self.get_argument("css")
        if ".." in name:
            raise tornado.web.HTTPError(400)
        with open(os.path.join(THEMES, name)) as fh:
            self.set_header("Content-Type", "text/css")
            self.write(fh.read())


app = tornado.web.Application([(r"/theme", ThemeHandler)])
