from flask import Flask
from flask_wtf.csrf import CSRFProtect

app = Flask(__name__)
# ruleid: python.flask-wtf-csrf-disabled
app.config["WTF_CSRF_ENABLED"] = False
# ruleid: python.flask-wtf-csrf-disabled
app.config.update(SECRET_KEY_FILE="/run/secrets/key", WTF_CSRF_ENABLED=False)


class DevConfig:
    # ruleid: python.flask-wtf-csrf-disabled
    WTF_CSRF_ENABLED = False


# ok: python.flask-wtf-csrf-disabled
app.config["WTF_CSRF_ENABLED"] = True
# ok: python.flask-wtf-csrf-disabled
csrf = CSRFProtect(app)
