import html

from flask import Flask, request

app = Flask(__name__)


@app.route("/bio")
def bio():
    text = request.args.get("bio", "")
    cleaned = text.replace("<script>", "").replace("</script>", "")
    return "<div class='bio'>" + cleaned + "</div>"
