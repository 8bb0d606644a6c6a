import os
import shlex
import subprocess
import sys

from flask import Flask, request

app = Flask(__name__)


@app.route("/ping")
def ping():
    host = request.args.get("host", "")
    # ruleid: python.taint-command-injection
    os.system("ping -c 1 " + host)
    # ok: python.taint-command-injection
    os.system("ping -c 1 " + shlex.quote(host))
    return "done"


@app.route("/convert", methods=["POST"])
def convert():
    fmt = request.form["format"]
    cmd = f"convert upload.png out.{fmt}"
    # ruleid: python.taint-command-injection
    output = subprocess.check_output(cmd, shell=True)
    # ok: python.taint-command-injection
    subprocess.run(["convert", "upload.png", "out." + fmt], check=True)
    return output


def build_archive_command(name):
    return "tar czf /tmp/%s.tgz /srv/data" % name


@app.route("/archive")
def archive():
    # ruleid: python.taint-command-injection
    subprocess.Popen(build_archive_command(request.args["name"]), shell=True)
    name = request.args["name"]
    name = "nightly"
    # ok: python.taint-command-injection
    subprocess.Popen(build_archive_command(name), shell=True)
    return "started"


def main():
    # ruleid: python.taint-command-injection
    os.popen("grep %s /var/log/syslog" % sys.argv[1])
    # ok: python.taint-command-injection
    os.system("uptime")
