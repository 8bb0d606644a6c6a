import os


def run_script(name):
    # ruleid: python.os-exec-spawn
    os.spawnv(os.P_WAIT, "/bin/sh", ["/bin/sh", "-c", build_command(name)])


def restart_with(config_path):
    # ruleid: python.os-exec-spawn
    os.execl("/usr/sbin/nginx", "nginx", "-c", str(config_path))


def list_root():
    # ok: python.os-exec-spawn
    os.spawnv(os.P_WAIT, "/bin/ls", ["/bin/ls", "-l", "/"])


def become(cmd, args):
    # ok: python.os-exec-spawn
    os.execvp(cmd, args)
