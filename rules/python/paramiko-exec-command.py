import paramiko
from paramiko import SSHClient


def restart(host, service):
    cli = paramiko.SSHClient()
    cli.load_system_host_keys()
    cli.connect(host)
    # ruleid: python.paramiko-exec-command
    stdin, stdout, stderr = cli.exec_command("systemctl restart " + service)
    return stdout.read()


def run_remote(cli: paramiko.SSHClient, command):
    # ruleid: python.paramiko-exec-command
    _, out, _ = cli.exec_command(command, timeout=30)
    return out.read()


def uptime(cli: SSHClient):
    # ok: python.paramiko-exec-command
    _, out, _ = cli.exec_command("uptime")
    return out.read()


def copy(cli, local, remote):
    # ok: python.paramiko-exec-command
    sftp = cli.open_sftp()
    sftp.put(local, remote)


class Remote:
    def __init__(self, host):
        self.ssh = self._connect(host)

    def _connect(self, host) -> paramiko.SSHClient:
        client = paramiko.SSHClient()
        client.connect(host)
        return client

    def run(self, cmd):
        chan = self.ssh.get_transport().open_session()
        # ruleid: python.paramiko-exec-command
        chan.exec_command(cmd)
        return chan.recv_exit_status()


class Connection:
    """A connection plugin with its own exec_command, which is not paramiko's."""

    def __init__(self, local):
        self._local = local

    def exec_command(self, cmd, in_data=None):
        # ok: python.paramiko-exec-command
        return self._local.exec_command(cmd, in_data)


def through_plugin(connection, cmd):
    # ok: python.paramiko-exec-command
    return connection.exec_command(cmd)
