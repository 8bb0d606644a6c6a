from flask import Flask, redirect, request

app = Flask(__name__)
SAFE_PATHS = {"/", "/account", "/orders"}


@app.route("/login/done")
def login_done():
    nxt = request.args.get("next", "/")
    if not nxt:
        nxt = "/"
    return redirect(nxt)
