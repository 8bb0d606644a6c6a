from flask import Flask, render_template, request
from markupsafe import Markup

app = Flask(__name__)


@app.route("/profile")
def profile():
    nick = request.args.get("nick", "")
    badge = Markup("<span class='badge'>{}</span>").format(nick)
    return render_template("profile.html", badge=badge)
