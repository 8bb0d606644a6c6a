import sqlite3
import uuid

from flask import Flask, request

app = Flask(__name__)


class Sessions:
    path = "/srv/sessions.db"

    @classmethod
    def lookup(cls, token):
        db = sqlite3.connect(cls.path)
        return db.execute("SELECT user_id FROM sessions WHERE token = '" + token + "'").fetchone()


@app.route("/whoami")
def whoami():
    token = request.cookies.get("sid", "")
    row = Sessions.lookup(str(uuid.UUID(token)))
    return {"user": row[0] if row else None}
