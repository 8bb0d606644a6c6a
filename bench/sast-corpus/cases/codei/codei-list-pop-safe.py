from flask import Flask, request

app = Flask(__name__)


@app.post("/rpn")
def rpn():
    stack = ["0"]
    stack.append(request.get_json()["expr"])
    top = stack.pop(0)
    return {"value": eval(top, {"__builtins__": {}})}
