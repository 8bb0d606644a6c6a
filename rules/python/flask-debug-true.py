import os
import unittest
from flask import Flask
import flask

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


def create_app():
    application = flask.Flask("svc")
    return application


def serve_factory():
    # ruleid: python.flask-debug-true
    create_app().run(debug=True)
    web = create_app()
    # ruleid: python.flask-debug-true
    web.run(port=8000, debug=True)


def serve_typed(server: Flask):
    # ruleid: python.flask-debug-true
    server.run(debug=True)


class Service:
    def __init__(self):
        self.app = Flask(__name__)

    def start(self):
        # ruleid: python.flask-debug-true
        self.app.run(debug=True)


def run_tests(tests):
    # The receiver is a unittest suite, whose run(debug=True) runs tests without catching errors.
    suite = unittest.TestSuite(tests)
    # ok: python.flask-debug-true
    suite.run(unittest.TestResult(), debug=True)


def run_unknown(runner):
    # Nothing says this is a Flask app.
    # ok: python.flask-debug-true
    runner.run(debug=True)
