import tornado.web


class SwitchRoleHandler(tornado.web.RequestHandler):
    def post(self):
        user = self.application.settings["users"].get(self.get_signed_cookie("user"))
        if user is None:
            raise tornado.web.HTTPError(401)
        self.set_signed_cookie("role", user.role, secure=True, httponly=True)
        self.write({"ok": True})


app = tornado.web.Application([(r"/role", SwitchRoleHandler)], cookie_secret="from-environment")
