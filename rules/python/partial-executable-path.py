import os
import subprocess
from subprocess import Popen as spawn


def pull():
    # ruleid: python.partial-executable-path
    subprocess.run(["git", "pull", "--ff-only"], check=True)


def ls():
    # ruleid: python.partial-executable-path
    return spawn("ls -l", shell=False)


def clear():
    # ruleid: python.partial-executable-path
    os.system("clear")


def pull_absolute():
    # ok: python.partial-executable-path
    subprocess.run(["/usr/bin/git", "pull", "--ff-only"], check=True)


def run_tool(tool_path, args):
    # ok: python.partial-executable-path
    subprocess.run([tool_path] + args, check=True)
