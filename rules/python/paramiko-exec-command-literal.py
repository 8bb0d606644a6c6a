import paramiko


def uptime(cli: paramiko.SSHClient):
    # ruleid: python.paramiko-exec-command-literal
    _, out, _ = cli.exec_command("uptime")
    return out.read()


def disk(host):
    cli = paramiko.client.SSHClient()
    cli.connect(host)
    # ruleid: python.paramiko-exec-command-literal
    return cli.exec_command("df -h", timeout=10)


def run_remote(cli: paramiko.SSHClient, command):
    # ok: python.paramiko-exec-command-literal
    return cli.exec_command(command)


def copy(cli, local, remote):
    # ok: python.paramiko-exec-command-literal
    cli.open_sftp().put(local, remote)


def not_paramiko(shell):
    # ok: python.paramiko-exec-command-literal
    return shell.exec_command("uptime")
