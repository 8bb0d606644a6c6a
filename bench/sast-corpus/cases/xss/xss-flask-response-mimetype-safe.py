from flask import Flask, Response, request

app = Flask(__name__)


@app.route("/echo", methods=["POST"])
def echo():
    body = request.get_data(as_text=True)
    return Response(f"You sent:\n{body}", mimetype="text/plain")
