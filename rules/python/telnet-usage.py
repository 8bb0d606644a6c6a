import telnetlib
from telnetlib import Telnet as TelnetClient
import paramiko


def reboot(host):
    # ruleid: python.telnet-usage
    tn = telnetlib.Telnet(host, 23, timeout=10)
    tn.write(b"reboot\n")


def backup(host):
    # ruleid: python.telnet-usage
    with TelnetClient(host) as tn:
        tn.write(b"show running-config\n")


def reboot_ssh(host):
    client = paramiko.SSHClient()
    client.load_system_host_keys()
    # ok: python.telnet-usage
    client.connect(host, username="admin")
    # ok: python.telnet-usage
    client.exec_command("reboot")
