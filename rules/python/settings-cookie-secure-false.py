import os
from flask import Flask

# ruleid: python.settings-cookie-secure-false
SESSION_COOKIE_SECURE = False
# ruleid: python.settings-cookie-secure-false
CSRF_COOKIE_SECURE = False
# ok: python.settings-cookie-secure-false
SESSION_COOKIE_SECURE = True
# ok: python.settings-cookie-secure-false
SESSION_COOKIE_HTTPONLY = False  # another rule's
# ok: python.settings-cookie-secure-false
SESSION_COOKIE_SECURE = os.environ.get("HTTPS") == "1"

if os.environ.get("ENV") == "dev":
    # ok: python.settings-cookie-secure-false
    SESSION_COOKIE_SECURE = False


class ProductionConfig:
    # ruleid: python.settings-cookie-secure-false
    REMEMBER_COOKIE_SECURE = False


class DevelopmentConfig:
    # ok: python.settings-cookie-secure-false
    SESSION_COOKIE_SECURE = False


app = Flask(__name__)
# ruleid: python.settings-cookie-secure-false
app.config["SESSION_COOKIE_SECURE"] = False
# ruleid: python.settings-cookie-secure-false
app.config.update(SECRET_KEY=os.environ["KEY"], SESSION_COOKIE_SECURE=False)
# ok: python.settings-cookie-secure-false
app.config.update(SESSION_COOKIE_SECURE=True)
