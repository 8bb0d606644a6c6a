import subprocess
from invoke import run as invoke_run
from fabric import Connection


def deploy(branch):
    # ruleid: python.any-function-shell-true
    invoke_run("git checkout " + branch, shell=True)


def remote(host, cmd):
    # ruleid: python.any-function-shell-true
    return Connection(host).run(cmd, shell=True)


def local(cmd):
    # ok: python.any-function-shell-true
    return subprocess.run(cmd, shell=True)


def local_safe(args):
    # ok: python.any-function-shell-true
    return invoke_run(" ".join(args), hide=True)
