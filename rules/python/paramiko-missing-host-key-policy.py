import paramiko
from paramiko import client as ssh


def connect(host, user, key_file):
    cli = paramiko.SSHClient()
    # ruleid: python.paramiko-missing-host-key-policy
    cli.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    cli.connect(host, username=user, key_filename=key_file)
    return cli


def connect_warn(host):
    cli = ssh.SSHClient()
    # ruleid: python.paramiko-missing-host-key-policy
    cli.set_missing_host_key_policy(ssh.WarningPolicy)
    cli.connect(host)
    return cli


def connect_strict(host):
    cli = paramiko.SSHClient()
    # ok: python.paramiko-missing-host-key-policy
    cli.load_system_host_keys()
    # ok: python.paramiko-missing-host-key-policy
    cli.set_missing_host_key_policy(paramiko.RejectPolicy())
    cli.connect(host)
    return cli
