import paramiko


def restart(host, service):
    cli = paramiko.SSHClient()
    cli.load_system_host_keys()
    cli.connect(host)
    # ruleid: python.paramiko-exec-command
    stdin, stdout, stderr = cli.exec_command("systemctl restart " + service)
    return stdout.read()


def run_remote(cli, command):
    # ruleid: python.paramiko-exec-command
    _, out, _ = cli.exec_command(command, timeout=30)
    return out.read()


def uptime(cli):
    # ok: python.paramiko-exec-command
    _, out, _ = cli.exec_command("uptime")
    return out.read()


def copy(cli, local, remote):
    # ok: python.paramiko-exec-command
    sftp = cli.open_sftp()
    sftp.put(local, remote)
