import hashlib
import os

import tornado.web

PASSWORD_ALGO = "md5"


class ResetHandler(tornado.web.RequestHandler):
    def post(self):
        password = self.get_body_argument("password").encode()
        salt = os.urandom(16)
        digest = hashlib.pbkdf2_hmac("sha256", password, salt, 600_000).hex()
        self.application.settings["store"].save(self.current_user, salt, digest)
        self.write({"ok": True})
