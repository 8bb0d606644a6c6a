import uuid

import tornado.web

SESSIONS = {}


class LoginHandler(tornado.web.RequestHandler):
    def post(self):
        sid = str(uuid.uuid1())
        SESSIONS[sid] = self.get_body_argument("user")
        self.set_cookie("sid", sid, secure=True, httponly=True)


app = tornado.web.Application([(r"/login", LoginHandler)])
