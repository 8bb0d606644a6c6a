import tornado.web


class LoginHandler(tornado.web.RequestHandler):
    def post(self):
        user_id = self.application.settings["auth"].check(self.get_body_argument("user"), self.get_body_argument("password"))
        self.set_signed_cookie("user", str(user_id), secure=True, httponly=True)
        self.redirect("/")


app = tornado.web.Application([(r"/login", LoginHandler)], cookie_secret="from-environment")
