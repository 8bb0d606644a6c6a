import html


def clean(value):
    return value.strip()
