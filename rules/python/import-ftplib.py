"""Imports checked by python.import-ftplib."""
# ruleid: python.import-ftplib
import ftplib
# ruleid: python.import-ftplib
from ftplib import FTP as Client
# ok: python.import-ftplib
import paramiko
# ok: python.import-ftplib
from pysftp import Connection
