from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.modes import ECB
from Crypto.Cipher import AES


def ecb_cipher(key):
    # ruleid: python.insecure-cipher-mode
    return Cipher(algorithms.AES(key), modes.ECB())


def ecb_direct(key):
    # ruleid: python.insecure-cipher-mode
    mode = ECB()
    return Cipher(algorithms.AES(key), mode)


def pycryptodome_ecb(key):
    # ruleid: python.insecure-cipher-mode
    return AES.new(key, AES.MODE_ECB)


def gcm_cipher(key, iv):
    # ok: python.insecure-cipher-mode
    return Cipher(algorithms.AES(key), modes.GCM(iv))


def pycryptodome_gcm(key):
    # ok: python.insecure-cipher-mode
    return AES.new(key, AES.MODE_GCM)
