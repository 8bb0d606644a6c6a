import shlex


def clean(value):
    value = value.strip()
    return value
