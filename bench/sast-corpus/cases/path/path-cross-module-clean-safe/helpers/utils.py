import os


def clean(value):
    return os.path.basename(value.strip())
