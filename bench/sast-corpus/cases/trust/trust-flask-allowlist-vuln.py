from flask import Flask, redirect, request, session

app = Flask(__name__)
app.secret_key = "set-from-environment-in-production"
LANGUAGES = {"en", "de", "fr"}


@app.route("/lang")
def set_language():
    lang = request.args.get("lang", "en")
    if not lang:
        lang = "en"
    session["lang"] = lang
    return redirect("/")
