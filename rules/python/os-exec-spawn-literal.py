import os
import sys


def list_root():
    # ruleid: python.os-exec-spawn-literal
    os.spawnv(os.P_WAIT, "/bin/ls", ["/bin/ls", "-l", "/"])


def restart_shell():
    # ruleid: python.os-exec-spawn-literal
    os.execl("/bin/bash", "bash", "--login")


def relaunch(argv):
    # ok: python.os-exec-spawn-literal
    os.execv(argv[0], argv)


def run_user_script(script):
    # ok: python.os-exec-spawn-literal
    os.execl("/bin/sh", "sh", "-c", quote_script(script))


def relaunch_self():
    # ruleid: python.os-exec-spawn-literal
    os.execv(sys.executable, [sys.executable] + sys.argv)
