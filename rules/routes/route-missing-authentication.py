from flask import Blueprint, Flask, abort, g, session
from flask_login import current_user, login_required

app = Flask(__name__)
bp = Blueprint("account", __name__)
admin = Blueprint("admin", __name__)
hooked = Blueprint("hooked", __name__)


@bp.route("/profile")
@login_required
def profile():
    return current_user.name


@bp.route("/notes")
@login_required
def notes():
    return db.query_notes(current_user.id)


@bp.route("/settings")
@login_required
def settings():
    return current_user.settings


# ruleid: python.route-missing-authentication
@bp.route("/account", methods=["POST"])
def update_account():
    current_user.email = "x"
    db.session.commit()


# ok: python.route-missing-authentication
@bp.route("/login", methods=["POST"])
def login():
    session["user"] = "x"


# ok: python.route-missing-authentication
@bp.route("/password", methods=["POST"])
def change_password():
    # Checks in its body.
    if not current_user.is_authenticated:
        abort(401)
    current_user.password = "x"


# ok: python.route-missing-authentication
@bp.route("/theme", methods=["POST"])
def theme():
    # Touches nothing private.
    return "dark"


@hooked.before_request
def require_login():
    if "user_id" not in session:
        abort(401)


# ok: python.route-missing-authentication
@hooked.route("/a")
def hooked_a():
    return db.session.get(A, 1)


# ok: python.route-missing-authentication
@hooked.route("/b")
def hooked_b():
    return db.session.get(B, 1)


# Only one sibling authenticates: no majority to miss.
@admin.route("/one")
@login_required
def admin_one():
    return current_user.name


# ok: python.route-missing-authentication
@admin.route("/two")
def admin_two():
    return db.session.query(User).all()


auth_bp = Blueprint("auth", __name__)


# The object's name says auth; its route decorators guard nothing.
@auth_bp.route("/me")
@login_required
def me():
    return current_user.name


@auth_bp.route("/profile")
@login_required
def auth_profile():
    return current_user.profile


# ruleid: python.route-missing-authentication
@auth_bp.route("/update-password", methods=["POST"])
def update_password():
    db.session.commit()
