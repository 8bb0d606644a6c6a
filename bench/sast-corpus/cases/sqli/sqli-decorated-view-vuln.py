import functools
import sqlite3

from flask import Flask, abort, request, session

app = Flask(__name__)


def login_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if "user_id" not in session:
            abort(401)
        return view(*args, **kwargs)
    return wrapped


@app.post("/notes/delete")
@login_required
def delete_note():
    note_id = request.form["id"]
    db = sqlite3.connect("/srv/notes.db")
    db.execute("DELETE FROM notes WHERE id = %s AND owner = %d" % (note_id, session["user_id"]))
    db.commit()
    return "", 204
