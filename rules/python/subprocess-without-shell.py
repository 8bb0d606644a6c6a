import subprocess as sp
from subprocess import run


def backup():
    # ruleid: python.subprocess-without-shell
    run(["/usr/bin/rsync", "-a", "/srv/data/", "/backup/data/"], check=True)


def version():
    # ruleid: python.subprocess-without-shell
    return sp.check_output("/usr/bin/git --version", shell=False)


def convert(src, dst):
    # ok: python.subprocess-without-shell
    run(["convert", src, "-resize", "50%", dst], check=True)


def convert_shell(src, dst):
    # ok: python.subprocess-without-shell
    run("convert %s %s" % (src, dst), shell=True)


def run_configured(cmd, use_shell):
    # ok: python.subprocess-without-shell
    return sp.call("/usr/bin/make all", shell=use_shell)
