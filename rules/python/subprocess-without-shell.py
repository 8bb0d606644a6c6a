import subprocess as sp
from subprocess import run


def convert(src, dst):
    # ruleid: python.subprocess-without-shell
    run(["convert", src, "-resize", "50%", dst], check=True)


def version(tool):
    # ruleid: python.subprocess-without-shell
    return sp.check_output([tool, "--version"], shell=False)


def convert_shell(src, dst):
    # ok: python.subprocess-without-shell
    run("convert %s %s" % (src, dst), shell=True)


def pipe():
    # ok: python.subprocess-without-shell
    return sp.PIPE
