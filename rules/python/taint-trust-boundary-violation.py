from flask import Flask, request, session

app = Flask(__name__)


@app.route("/login", methods=["POST"])
def login():
    username = request.form["username"]
    if check_password(username, request.form["password"]):
        # ok: python.taint-trust-boundary-violation
        session["user_id"] = lookup_user_id_from_db()
    # ruleid: python.taint-trust-boundary-violation
    session["display_name"] = username
    return "ok"


@app.route("/prefs")
def prefs():
    # ruleid: python.taint-trust-boundary-violation
    session["theme"] = request.args.get("theme", "light")
    # ok: python.taint-trust-boundary-violation
    session["page_size"] = int(request.args.get("size", 20))
    return "saved"


def django_view(request):
    # ruleid: python.taint-trust-boundary-violation
    request.session["cart"] = request.POST.get("cart")
    # ok: python.taint-trust-boundary-violation
    request.session["visited"] = True
