import random
import string

_rng = random.Random()
CHARS = string.ascii_letters + string.digits + "!@#%"


def temporary_password(length=16):
    return "".join(_rng.choice(CHARS) for _ in range(length))
