from __future__ import absolute_import, print_function

import sys


def ask_age():
    # ruleid: python.py2-input
    age = input("Age: ")
    return age


def ask_name():
    # ruleid: python.py2-input
    return input("Name: ").strip()


def ask_name_py2():
    # ok: python.py2-input
    return raw_input("Name: ").strip()


def ask_from_stdin():
    # ok: python.py2-input
    return sys.stdin.readline()
