import shlex


def clean(value):
    value = value.strip()
    return shlex.quote(value)
