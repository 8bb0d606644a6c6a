import subprocess
import subprocess as sp
from subprocess import check_output


def archive(directory):
    # ruleid: python.subprocess-shell-true
    subprocess.run("tar czf backup.tgz " + directory, shell=True, check=True)


def ping(host):
    # ruleid: python.subprocess-shell-true
    return sp.call(f"ping -c 1 {host}", shell=True)


def grep(pattern, path):
    cmd = "grep %s %s" % (pattern, path)
    # ruleid: python.subprocess-shell-true
    return check_output(cmd, shell=True)


def archive_safely(directory):
    # ok: python.subprocess-shell-true
    subprocess.run(["tar", "czf", "backup.tgz", directory], check=True)


def ping_no_shell(host):
    # ok: python.subprocess-shell-true
    return sp.call(["ping", "-c", "1", host], shell=False)


def list_tmp():
    # ok: python.subprocess-shell-true
    return subprocess.check_output("ls -l /var/log", shell=True)


def run_hook(hook_cmd):
    # nofix: python.subprocess-shell-true (a variable of unknown type)
    # ruleid: python.subprocess-shell-true
    return subprocess.Popen(args=hook_cmd, shell=True, stdout=subprocess.PIPE)


def count_lines(path):
    # nofix: python.subprocess-shell-true (the pipe needs a shell)
    # ruleid: python.subprocess-shell-true
    return subprocess.check_output("wc -l " + path + " | cut -d' ' -f1", shell=True)
