import html
import shlex
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.route("/grep")
def grep_logs():
    pattern = html.escape(request.args["q"])
    result = subprocess.check_output("grep -i " + pattern + " /var/log/app.log", shell=True)
    return result, 200, {"Content-Type": "text/plain"}
