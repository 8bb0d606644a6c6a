"""A deliberately vulnerable Flask service: Sentinel's demo and end-to-end test target.

Every problem here is intentional and listed in README.md. Do not deploy this.
"""
import hashlib
import os
import pickle
import sqlite3
import subprocess

import requests
import yaml
from flask import Flask, redirect, request

app = Flask(__name__)
DATABASE = "/tmp/demo.sqlite"


def get_db():
    return sqlite3.connect(DATABASE)


@app.route("/ping")
def ping():
    host = request.args.get("host", "127.0.0.1")
    # Command injection: the query string reaches a shell.
    output = subprocess.check_output("ping -c 1 " + host, shell=True)
    return output


@app.route("/user")
def user():
    name = request.args.get("name")
    cursor = get_db().cursor()
    # SQL injection: string formatting builds the query.
    cursor.execute("SELECT id, email FROM users WHERE name = '%s'" % name)
    return str(cursor.fetchall())


@app.route("/user/safe")
def user_safe():
    name = request.args.get("name")
    cursor = get_db().cursor()
    cursor.execute("SELECT id, email FROM users WHERE name = ?", (name,))
    return str(cursor.fetchall())


@app.route("/calc")
def calc():
    expression = request.form["expression"]
    # Code injection.
    return str(eval(expression))


@app.route("/next")
def next_page():
    target = request.args.get("url")
    # Open redirect.
    return redirect(target)


@app.route("/session", methods=["POST"])
def load_session():
    # Insecure deserialisation of request data.
    state = pickle.loads(request.get_data())
    return str(state)


@app.route("/config", methods=["POST"])
def load_config():
    return str(yaml.load(request.get_data()))


@app.route("/fetch")
def fetch():
    # TLS verification disabled.
    return requests.get("https://internal.example/status", verify=False, timeout=5).text


def hash_password(password):
    # A fast, broken hash for passwords.
    return hashlib.md5(password.encode()).hexdigest()


def cleanup(path):
    os.system("rm -rf " + path)


if __name__ == "__main__":
    app.run(host="0.0.0.0", debug=True)
