from Crypto.Cipher import DES
from Cryptodome.Cipher import ARC4 as RC4
from Crypto.Cipher import AES
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def encrypt_legacy(key, data):
    # ruleid: python.insecure-cipher
    cipher = DES.new(key, DES.MODE_ECB)
    return cipher.encrypt(data)


def stream(key, data):
    # ruleid: python.insecure-cipher
    return RC4.new(key).encrypt(data)


def triple(key, iv):
    # ruleid: python.insecure-cipher
    return Cipher(algorithms.TripleDES(key), modes.CBC(iv))


def modern(key, nonce, data):
    # ok: python.insecure-cipher
    cipher = AES.new(key, AES.MODE_GCM, nonce=nonce)
    return cipher.encrypt_and_digest(data)


def modern_hazmat(key, iv):
    # ok: python.insecure-cipher
    return Cipher(algorithms.AES(key), modes.GCM(iv))
