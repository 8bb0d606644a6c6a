import secrets

import tornado.web

COOKIE_OPTIONS = {"httponly": True, "secure": True, "samesite": "Lax"}


class LoginHandler(tornado.web.RequestHandler):
    def post(self):
        self.set_cookie("sid", secrets.token_urlsafe(32), **COOKIE_OPTIONS)
        self.write({"ok": True})


app = tornado.web.Application([(r"/login", LoginHandler)])
