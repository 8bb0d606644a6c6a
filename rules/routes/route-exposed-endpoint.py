from flask import Flask
from flask_login import current_user, login_required

app = Flask(__name__)


@app.route("/notes")
@login_required
def notes():
    return current_user.notes


@app.route("/profile")
@login_required
def profile():
    return current_user.name


@app.route("/admin/users")
@login_required
def admin_users():
    return User.query.all()


# ruleid: python.route-exposed-endpoint
@app.route("/debug/env")
def debug_env():
    return dict(os.environ)


# ruleid: python.route-exposed-endpoint
@app.route("/reset", methods=["POST"])
def reset_database():
    db.drop_all()
    db.create_all()


# ok: python.route-exposed-endpoint
@app.route("/internal/stats")
def internal_stats():
    if not current_user.is_authenticated or not current_user.is_admin:
        return "forbidden", 403
    return stats()


# ok: python.route-exposed-endpoint
@app.route("/reset_password", methods=["POST"])
def reset_password():
    return send_reset_mail()


# ok: python.route-exposed-endpoint
@app.route("/search")
def search():
    return "results"


# ok: python.route-exposed-endpoint
@app.route("/internal_server_error")
def internal_server_error():
    # An error page: public by nature.
    return "oops", 500
