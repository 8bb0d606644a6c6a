import os
import sys
from os import execvp as replace_process


def relaunch():
    # ruleid: python.os-exec-spawn
    os.execv(sys.executable, [sys.executable] + sys.argv)


def open_document(path):
    # ruleid: python.os-exec-spawn
    os.startfile(path)


def become(cmd, args):
    # ruleid: python.os-exec-spawn
    replace_process(cmd, args)


def run_script(name):
    # ruleid: python.os-exec-spawn
    os.spawnv(os.P_WAIT, "/bin/sh", ["/bin/sh", "-c", build_command(name)])


def list_root():
    # ok: python.os-exec-spawn
    os.spawnv(os.P_WAIT, "/bin/ls", ["/bin/ls", "-l", "/"])


def my_pid():
    # ok: python.os-exec-spawn
    return os.getpid()
