from cryptography.hazmat.primitives.asymmetric import rsa, dsa
from Cryptodome.PublicKey import DSA


def toy_rsa():
    # ruleid: python.broken-rsa-dsa-key
    return rsa.generate_private_key(public_exponent=65537, key_size=512)


def toy_dsa():
    # ruleid: python.broken-rsa-dsa-key
    return DSA.generate(bits=768)


def legacy_rsa():
    # ok: python.broken-rsa-dsa-key
    return rsa.generate_private_key(public_exponent=65537, key_size=1024)


def modern_rsa(size):
    # ok: python.broken-rsa-dsa-key
    return rsa.generate_private_key(public_exponent=65537, key_size=size)
