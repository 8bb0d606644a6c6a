import os
import subprocess
from os import system, popen as run_pipe


def convert(path):
    # ruleid: python.os-system
    os.system("convert " + path + " out.png")


def count_lines(path):
    # ruleid: python.os-system
    return run_pipe(f"wc -l {path}").read()


def disk_usage(directory):
    # ruleid: python.os-system
    return subprocess.getoutput("du -sh %s" % directory)


def restart(service):
    # ruleid: python.os-system
    system("systemctl restart {}".format(service))


def uptime():
    # ok: python.os-system
    return os.popen("uptime").read()


def convert_safely(path):
    # ok: python.os-system
    subprocess.run(["convert", path, "out.png"], check=True)


def run_hidden(cmd):
    # ruleid: python.os-system
    runner = getattr(os, "system")
    runner(cmd)
