import hashlib
import hmac
import os
from cryptography.fernet import Fernet
from Crypto.Cipher import AES

key = 'JHtM1wEt1I1J9N_Evjwqr3yYauXIqSxYzFnRhcf0ZG0='
# ruleid: python.hardcoded-crypto-key
fernet = Fernet(key)
# ok: python.hardcoded-crypto-key
fernet2 = Fernet(os.environ["FERNET_KEY"])
# ok: python.hardcoded-crypto-key
fernet3 = Fernet(Fernet.generate_key())


def sign(msg):
    # ruleid: python.hardcoded-crypto-key
    return hmac.new(b"s3cr3t-mac-key", msg, hashlib.sha256).hexdigest()


def sign2(msg):
    # ruleid: python.hardcoded-crypto-key
    return hmac.new("s3cr3t".encode(), msg, hashlib.sha256).hexdigest()


def sign3(msg, secret):
    # ok: python.hardcoded-crypto-key
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()


def encrypt(data):
    # ruleid: python.hardcoded-crypto-key
    cipher = AES.new(b"0123456789abcdef", AES.MODE_GCM)
    return cipher.encrypt_and_digest(data)


def test_sign():
    # ok: python.hardcoded-crypto-key
    assert hmac.new(b"k", b"m", hashlib.sha256).digest()
