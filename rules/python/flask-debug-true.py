import os
from flask import Flask

app = Flask(__name__)

if __name__ == "__main__":
    # ruleid: python.flask-debug-true
    app.run(host="127.0.0.1", port=5000, debug=True)

def dev():
    # ruleid: python.flask-debug-true
    app.run(debug=True)

def prod():
    # ok: python.flask-debug-true
    app.run(debug=os.environ.get("FLASK_DEBUG") == "1")
    # ok: python.flask-debug-true
    app.run(debug=False)
