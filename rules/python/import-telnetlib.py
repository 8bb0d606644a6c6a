"""Imports checked by python.import-telnetlib."""
# ruleid: python.import-telnetlib
import telnetlib
# ruleid: python.import-telnetlib
from telnetlib import Telnet
# ok: python.import-telnetlib
import paramiko
# ok: python.import-telnetlib
import socket
