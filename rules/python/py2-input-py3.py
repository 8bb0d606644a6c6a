# More python.py2-input cases: a Python 3 file (its only __future__ import is Python 3's own).
from __future__ import annotations

from six.moves import input as ask


def prompt(msg: str) -> str:
    # ok: python.py2-input
    return input(msg)


def prompt_compat(msg):
    # ok: python.py2-input
    return ask(msg)
