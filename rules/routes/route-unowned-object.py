from flask import Flask, abort, request, session
from flask_login import current_user, login_required

app = Flask(__name__)


@app.route("/notes")
@login_required
def notes():
    return Note.query.filter_by(user_id=current_user.id).all()


# ruleid: python.route-unowned-object
@app.route("/notes/<int:note_id>/delete", methods=["POST"])
@login_required
def delete_note(note_id):
    note = db.session.get(Note, note_id)
    db.session.delete(note)
    db.session.commit()


# ruleid: python.route-unowned-object
@app.route("/accounts/<int:user_id>/notes")
@login_required
def personal_notes(user_id):
    return db.session.query(Note).filter(Note.user_id == user_id).all()


# ok: python.route-unowned-object
@app.route("/notes/<int:note_id>")
@login_required
def show_note(note_id):
    note = Note.query.get_or_404(note_id)
    if note.user_id != current_user.id:
        abort(403)
    return note.text


# ok: python.route-unowned-object
@app.route("/mine/<int:note_id>")
@login_required
def mine(note_id):
    return Note.query.filter_by(id=note_id, user_id=current_user.id).first_or_404()


# ok: python.route-unowned-object
@app.route("/public/<int:post_id>")
def public_post(post_id):
    # Not authenticated: a public object, for another check to judge.
    return Post.query.get(post_id)


# ruleid: python.route-unowned-object
@app.route("/orders/<order_id>")
@login_required
def order_sql(order_id):
    query = f"SELECT * FROM orders WHERE id = {order_id}"
    return db.session.execute(query).fetchone()


# ok: python.route-unowned-object
@app.route("/files/<name>")
@login_required
def own_file(name):
    # Restricted to the caller's files by a server-side value.
    uid = session["user_id"]
    return cursor.execute("SELECT * FROM files WHERE name = ? AND user_id = ?", (name, uid)).fetchone()


# ok: python.route-unowned-object
@app.route("/login", methods=["POST"])
def login():
    user = User.query.get(request.form["id"])
    if user is None:
        return "unknown", 401
    return "welcome"


# ok: python.route-unowned-object
@app.route("/profile", methods=["POST"])
@login_required
def update_profile():
    # The client's values are set; the row is the caller's own.
    data = request.json
    uid = session["user_id"]
    sql = "UPDATE users SET " + ", ".join(f"{k} = ?" for k in data) + " WHERE id = ?"
    cursor.execute(sql, list(data.values()) + [uid])


# ok: python.route-unowned-object
@app.route("/bookmarks/<int:bookmark_id>/delete", methods=["POST"])
@login_required
def delete_bookmark(bookmark_id):
    # A local holding the current user scopes the lookup.
    owner = current_user.account
    bookmark = Bookmark.query.filter_by(id=bookmark_id, user=owner).first()
    db.session.delete(bookmark)


# ruleid: python.route-unowned-object
@app.route("/bookmarks/<int:bookmark_id>/archive", methods=["POST"])
@login_required
def archive_bookmark(bookmark_id):
    owner = current_user.account
    bookmark = Bookmark.query.filter_by(id=bookmark_id).first()
    bookmark.archived_by = owner.name


# ruleid: python.route-unowned-object
@app.route("/transactions")
@login_required
def transactions():
    # The client chooses the user; the current user is only the default.
    user_id = request.args.get("user_id", current_user.id)
    return db.session.execute(f"SELECT * FROM transfers WHERE sender_id = {user_id}").fetchall()


# ok: python.route-unowned-object
@app.route("/admin/users/<int:user_id>/delete", methods=["POST"])
@admin_required
def delete_user(user_id):
    user = db.session.get(User, user_id)
    db.session.delete(user)
    db.session.commit()


# ok: python.route-unowned-object
@app.route("/notes/<int:note_id>/archive", methods=["POST"])
@permission_required("notes.archive_note")
def archive_note(note_id):
    note = db.session.get(Note, note_id)
    note.archived = True
    db.session.commit()
