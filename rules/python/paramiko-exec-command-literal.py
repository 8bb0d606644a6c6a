def uptime(cli):
    # ruleid: python.paramiko-exec-command-literal
    _, out, _ = cli.exec_command("uptime")
    return out.read()


def disk(cli):
    # ruleid: python.paramiko-exec-command-literal
    return cli.exec_command("df -h", timeout=10)


def run_remote(cli, command):
    # ok: python.paramiko-exec-command-literal
    return cli.exec_command(command)


def copy(cli, local, remote):
    # ok: python.paramiko-exec-command-literal
    cli.open_sftp().put(local, remote)
