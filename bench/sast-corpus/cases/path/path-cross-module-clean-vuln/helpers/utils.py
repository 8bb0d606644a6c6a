import os


def clean(value):
    return value.strip()
