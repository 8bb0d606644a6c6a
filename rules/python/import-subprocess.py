"""Imports checked by python.import-subprocess."""
# ruleid: python.import-subprocess
import subprocess
# ruleid: python.import-subprocess
from subprocess import run, PIPE
# ok: python.import-subprocess
import shlex
# ok: python.import-subprocess
import sys
