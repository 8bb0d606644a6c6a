import os
import sys
from os import execvp as replace_process


def open_document(path):
    # ruleid: python.os-exec-dynamic-program
    os.startfile(path)


def become(cmd, args):
    # ruleid: python.os-exec-dynamic-program
    replace_process(cmd, args)


def launch(tool_dir, name):
    # ruleid: python.os-exec-dynamic-program
    return os.spawnv(os.P_NOWAIT, os.path.join(tool_dir, name), [name])


def relaunch():
    # ok: python.os-exec-dynamic-program
    os.execv(sys.executable, [sys.executable] + sys.argv)


def list_root():
    # ok: python.os-exec-dynamic-program
    os.spawnv(os.P_WAIT, "/bin/ls", ["/bin/ls", "-l", "/"])
