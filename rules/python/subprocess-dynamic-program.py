import subprocess as sp
import sys
from subprocess import run


def tool_version(tool):
    # ruleid: python.subprocess-dynamic-program
    return sp.check_output([tool, "--version"], shell=False)


def open_viewer(viewer_path, document):
    # ruleid: python.subprocess-dynamic-program
    return sp.Popen((viewer_path, document))


def run_named(name):
    # ruleid: python.subprocess-dynamic-program
    return run(f"/opt/tools/{name}", check=True)


def self_test():
    # ok: python.subprocess-dynamic-program
    return run([sys.executable, "-m", "pytest", "-q"], check=True)


def convert(src, dst):
    # ok: python.subprocess-dynamic-program
    return run(["convert", src, dst], check=True)


def format_with_black(paths):
    import shutil

    black = shutil.which("black")
    if black:
        # ok: python.subprocess-dynamic-program
        run([black, "--fast", *paths], check=True)


GIT = "git"


def git_status():
    # ok: python.subprocess-dynamic-program
    return sp.check_output([GIT, "status"])


def run_entrypoint(module, options):
    # ok: python.subprocess-dynamic-program
    return sp.run(
        [
            sys.executable,
            "-c",
            "import %s" % module,
        ]
        + options
    )
