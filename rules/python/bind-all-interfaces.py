import socket
from flask import Flask

app = Flask(__name__)


def serve(port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # ruleid: python.bind-all-interfaces
    sock.bind(("0.0.0.0", port))
    return sock


def serve_v6(port):
    sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    # ruleid: python.bind-all-interfaces
    sock.bind(("::", port))
    return sock


def serve_local(port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # ok: python.bind-all-interfaces
    sock.bind(("127.0.0.1", port))
    return sock


if __name__ == "__main__":
    # ruleid: python.bind-all-interfaces
    app.run(host="0.0.0.0", port=8080)
    # ok: python.bind-all-interfaces
    app.run(host="localhost", port=8080)
