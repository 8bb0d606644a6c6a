import tornado.web


class MainHandler(tornado.web.RequestHandler):
    def post(self):
        self.set_secure_cookie("user", self.get_argument("name"))


# ruleid: python.tornado-xsrf-not-enabled
application = tornado.web.Application([(r"/", MainHandler)], cookie_secret="s")


class Application(tornado.web.Application):
    def __init__(self):
        settings = {"template_path": "templates"}
        # ruleid: python.tornado-xsrf-not-enabled
        tornado.web.Application.__init__(self, [(r"/", MainHandler)], **settings)


class Other:
    def __init__(self):
        # ok: python.tornado-xsrf-not-enabled
        super().__init__()


class Handler(tornado.web.RequestHandler):
    def initialize(self):
        # ok: python.tornado-xsrf-not-enabled
        super().initialize()


# ok: python.tornado-xsrf-not-enabled
application.add_handlers(r".*", [(r"/x", MainHandler)])
