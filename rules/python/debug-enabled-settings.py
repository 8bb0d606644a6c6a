import os
import tornado.web
from flask import Flask

# ruleid: python.debug-enabled-settings
DEBUG = True
# ok: python.debug-enabled-settings
DEBUG = False
# ok: python.debug-enabled-settings
DEBUG = os.environ.get("DEBUG") == "1"

if os.environ.get("ENV") == "dev":
    # ok: python.debug-enabled-settings
    DEBUG = True


class Config:
    # ruleid: python.debug-enabled-settings
    DEBUG = True


class DevelopmentConfig(Config):
    # ok: python.debug-enabled-settings
    DEBUG = True


class TestingConfig(Config):
    # ok: python.debug-enabled-settings
    DEBUG = True


app = Flask(__name__)
# ruleid: python.debug-enabled-settings
app.config["DEBUG"] = True
# ruleid: python.debug-enabled-settings
app.debug = True
# ruleid: python.debug-enabled-settings
app.config.update(SECRET_KEY=os.environ["KEY"], DEBUG=True)
# ok: python.debug-enabled-settings
app.config["DEBUG"] = False


def test_debug_page(settings):
    # ok: python.debug-enabled-settings
    settings.DEBUG = True
    # ok: python.debug-enabled-settings
    DEBUG = True


# ruleid: python.debug-enabled-settings
application = tornado.web.Application([], debug=True)
# ok: python.debug-enabled-settings
application = tornado.web.Application([], debug=False, xsrf_cookies=True)

settings = {
    "static_path": "static",
    "debug": True,
}
# ruleid: python.debug-enabled-settings
application = tornado.web.Application([], **settings)
quiet = {"debug": False}
# ok: python.debug-enabled-settings
application = tornado.web.Application([], **quiet)


class Application(tornado.web.Application):
    def __init__(self):
        handlers = [(r"/", object)]
        settings = {"template_path": "templates", "debug": True}
        # ruleid: python.debug-enabled-settings
        tornado.web.Application.__init__(self, handlers, **settings)


class QuietApplication(tornado.web.Application):
    def __init__(self):
        settings = {"template_path": "templates", "debug": os.environ.get("DEBUG") == "1"}
        # ok: python.debug-enabled-settings
        super().__init__([], **settings)


class Plain:
    def __init__(self):
        # ok: python.debug-enabled-settings
        self.debug = True
