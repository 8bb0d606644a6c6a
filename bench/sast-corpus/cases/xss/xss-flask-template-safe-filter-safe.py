from flask import Flask, render_template_string, request

app = Flask(__name__)
PAGE = "<html><body><div class='notice'>{{ message }}</div></body></html>"


@app.route("/notice")
def notice():
    return render_template_string(PAGE, message=request.args.get("m", ""))
