import os
from flask import Flask

# ruleid: python.settings-cookie-httponly-false
SESSION_COOKIE_HTTPONLY = False
# ok: python.settings-cookie-httponly-false
SESSION_COOKIE_HTTPONLY = True
# ok: python.settings-cookie-httponly-false
CSRF_COOKIE_HTTPONLY = False  # Django: no benefit either way, the token is read from the page


class Config:
    # ruleid: python.settings-cookie-httponly-false
    SESSION_COOKIE_HTTPONLY = False


class TestConfig(Config):
    # ok: python.settings-cookie-httponly-false
    SESSION_COOKIE_HTTPONLY = False


app = Flask(__name__)
# ruleid: python.settings-cookie-httponly-false
app.config["SESSION_COOKIE_HTTPONLY"] = False
# ruleid: python.settings-cookie-httponly-false
app.config.update(REMEMBER_COOKIE_HTTPONLY=False)
# ok: python.settings-cookie-httponly-false
app.config["SESSION_COOKIE_HTTPONLY"] = True
