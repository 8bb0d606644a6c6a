from flask import Flask, request

app = Flask(__name__)


class Banner:
    title = "Spring sale"

    def __init__(self, headline):
        self.headline = headline

    def render(self):
        return "<div class='banner'>" + self.title + "</div>"


@app.route("/banner")
def banner():
    return Banner(request.args.get("h", "")).render()
