# More python.py2-input cases: files that target Python 3 only, or rebind input.
from __future__ import annotations, print_function

try:
    input = raw_input  # noqa: F821 (Python 2)
except NameError:
    pass


def ask_name():
    # input is raw_input on Python 2 here.
    # ok: python.py2-input
    return input("Name: ")


def ask_age():
    # ok: python.py2-input
    return int(input("Age: "))
