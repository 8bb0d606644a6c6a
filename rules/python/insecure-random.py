import random
import secrets
import string
from random import choice as pick


def reset_token():
    # ruleid: python.insecure-random
    return "%032x" % random.getrandbits(128)


def temp_password(length=12):
    alphabet = string.ascii_letters + string.digits
    # ruleid: python.insecure-random
    return "".join(pick(alphabet) for _ in range(length))


def secure_token():
    # ok: python.insecure-random
    return secrets.token_hex(16)


def secure_password(length=12):
    alphabet = string.ascii_letters + string.digits
    # ok: python.insecure-random
    return "".join(secrets.choice(alphabet) for _ in range(length))


# ok: python.insecure-random
rng = random.SystemRandom()
