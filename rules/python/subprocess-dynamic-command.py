import subprocess as sp
from subprocess import run


def convert(src, dst):
    # ruleid: python.subprocess-dynamic-command
    run(["convert", src, "-resize", "50%", dst], check=True)


def tool_version(tool):
    # ruleid: python.subprocess-dynamic-command
    return sp.check_output([tool, "--version"], shell=False)


def git_version():
    # ok: python.subprocess-dynamic-command
    return sp.check_output(["git", "--version"])


def grep_shell(pattern):
    # ok: python.subprocess-dynamic-command
    return sp.run("grep -r " + pattern, shell=True)
