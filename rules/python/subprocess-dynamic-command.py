import subprocess as sp
import sys
from subprocess import run


def convert(src, dst):
    # ruleid: python.subprocess-dynamic-command
    run(["convert", src, "-resize", "50%", dst], check=True)


def run_checks(extra_args):
    # ruleid: python.subprocess-dynamic-command
    return sp.call(["pytest", "-q"] + extra_args)


def rebuild(cmd):
    # ruleid: python.subprocess-dynamic-command
    return sp.check_call(cmd)


def git_version():
    # ok: python.subprocess-dynamic-command
    return sp.check_output(["git", "--version"])


def tool_version(tool):
    # ok: python.subprocess-dynamic-command
    return sp.check_output([tool, "--version"])


def grep_shell(pattern):
    # ok: python.subprocess-dynamic-command
    return sp.run("grep -r " + pattern, shell=True)
