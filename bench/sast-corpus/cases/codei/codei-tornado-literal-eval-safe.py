import ast

import tornado.web


class SettingsHandler(tornado.web.RequestHandler):
    def post(self):
        raw = self.get_body_argument("settings")
        settings = ast.literal_eval(raw)
        self.write({"keys": sorted(settings)})


app = tornado.web.Application([(r"/settings", SettingsHandler)])
