import re


def clean(value):
    return re.sub(r"[^A-Za-z0-9_]", "", value)
