from Crypto.Hash import MD5
from Cryptodome.Hash import SHA as LegacySHA
from Crypto.Hash import SHA256
from cryptography.hazmat.primitives import hashes


def checksum(data):
    # ruleid: python.pycrypto-weak-hash
    return MD5.new(data).hexdigest()


def legacy(data):
    # ruleid: python.pycrypto-weak-hash
    return LegacySHA.new(data).digest()


def hmac_algorithm():
    # ruleid: python.pycrypto-weak-hash
    return hashes.SHA1()


def strong(data):
    # ok: python.pycrypto-weak-hash
    return SHA256.new(data).hexdigest()


def strong_algorithm():
    # ok: python.pycrypto-weak-hash
    return hashes.SHA256()
