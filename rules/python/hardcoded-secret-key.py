import os
import tornado.web
from flask import Flask

# ruleid: python.hardcoded-secret-key
SECRET_KEY = 'h++jszpm)i@p%ay_b=cp#()^od!qns14)h%@qm3)p=cuo+st^a'
# ok: python.hardcoded-secret-key
SECRET_KEY = os.environ["SECRET_KEY"]
# ruleid: python.hardcoded-secret-key
SECRET_KEY = os.environ.get("SECRET_KEY", "insecure-fallback")
# ok: python.hardcoded-secret-key
SECRET_KEY = os.environ.get("SECRET_KEY")
# ok: python.hardcoded-secret-key
SECRET_KEY = ""
# ok: python.hardcoded-secret-key
SECRET_KEY = "<put your secret key here>"
# ok: python.hardcoded-secret-key
SECRET_KEY_FILE = "/run/secrets/key"

app = Flask(__name__)
# ruleid: python.hardcoded-secret-key
app.secret_key = "super secret key"
# ruleid: python.hardcoded-secret-key
app.config['SECRET_KEY'] = 'supersecret'
# ruleid: python.hardcoded-secret-key
app.config["JWT_SECRET_KEY"] = 'dvga'
# ruleid: python.hardcoded-secret-key
app.config.update(SECRET_KEY="aaaaaaa")
# ok: python.hardcoded-secret-key
app.config['SECRET_KEY'] = os.urandom(32)
# ok: python.hardcoded-secret-key
app.config['SECRET_KEY_ROTATION'] = "daily"


class Config:
    # ruleid: python.hardcoded-secret-key
    SECRET_KEY = "just_another_secret"


class TestingConfig(Config):
    # ok: python.hardcoded-secret-key
    SECRET_KEY = "testing"


def test_signing(settings):
    # ok: python.hardcoded-secret-key
    settings.SECRET_KEY = "x" * 50


# ruleid: python.hardcoded-secret-key
application = tornado.web.Application([], cookie_secret="61oETzKXQAGaYdkL5gEmGeJJFuYh7EQnp2XdTP1o")
# ok: python.hardcoded-secret-key
application = tornado.web.Application([], cookie_secret=os.environ["COOKIE_SECRET"])
# ruleid: python.hardcoded-secret-key
settings = {
    "cookie_secret": "__TODO:_GENERATE_YOUR_OWN_RANDOM_VALUE_HERE__",
    "xsrf_cookies": True,
}
