from cryptography.hazmat.primitives.asymmetric import rsa, dsa
from Crypto.PublicKey import RSA


def legacy_rsa():
    # ruleid: python.weak-rsa-dsa-key
    return rsa.generate_private_key(public_exponent=65537, key_size=1024)


def legacy_dsa():
    # ruleid: python.weak-rsa-dsa-key
    return dsa.generate_private_key(1536)


def legacy_pycrypto():
    # ruleid: python.weak-rsa-dsa-key
    return RSA.generate(1024)


def modern_rsa():
    # ok: python.weak-rsa-dsa-key
    return rsa.generate_private_key(public_exponent=65537, key_size=3072)


def modern_pycrypto(bits):
    # ok: python.weak-rsa-dsa-key
    return RSA.generate(4096)


def tiny_key():
    # ok: python.weak-rsa-dsa-key
    return RSA.generate(512)
