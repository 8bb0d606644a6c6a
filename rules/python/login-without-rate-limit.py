import flask
from flask import request
from flask_restful import Resource

app = flask.Flask(__name__)


# ruleid: python.login-without-rate-limit
@app.route("/login", methods=["GET", "POST"])
def do_login():
    password = request.form.get("password")
    return check(request.form["username"], password)


# ruleid: python.login-without-rate-limit
@app.post("/api/token")
async def token(form):
    return issue(form.username, form.password)


# ruleid: python.login-without-rate-limit
def login_view(request):
    user = authenticate(request, username=request.POST["username"], password=request.POST["password"])
    return user


# ruleid: python.login-without-rate-limit
class UserLogin(Resource):
    def post(self):
        data = request.get_json()
        return check(data["username"], data["password"])


# ok: python.login-without-rate-limit
@app.route("/logout")
def logout():
    return "bye"


# ok: python.login-without-rate-limit
@app.route("/login")
def login_page():
    return flask.render_template("login.html")


# ok: python.login-without-rate-limit
def login_required(view):
    return view


# ok: python.login-without-rate-limit
class LoginForm(Resource):
    def get(self):
        return {"fields": ["username", "password"]}


# ok: python.login-without-rate-limit
@app.route("/profile", methods=["POST"])
def profile():
    return update(request.form["password"])
