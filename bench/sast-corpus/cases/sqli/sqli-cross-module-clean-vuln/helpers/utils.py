import re


def clean(value):
    return re.sub(r"\s+", " ", value)
