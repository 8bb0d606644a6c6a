import random

import tornado.web

SESSIONS = {}


class SessionHandler(tornado.web.RequestHandler):
    def initialize(self):
        self.rng = random.Random()

    def post(self):
        session_id = "%032x" % self.rng.getrandbits(128)
        SESSIONS[session_id] = self.get_body_argument("user")
        self.set_cookie("sid", session_id, secure=True, httponly=True)


app = tornado.web.Application([(r"/session", SessionHandler)])
