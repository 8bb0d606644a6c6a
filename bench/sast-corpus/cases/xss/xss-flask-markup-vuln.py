from flask import Flask, render_template, request
from markupsafe import Markup

app = Flask(__name__)


@app.route("/profile")
def profile():
    nick = request.args.get("nick", "")
    badge = Markup(f"<span class='badge'>{nick}</span>")
    return render_template("profile.html", badge=badge)
