import hashlib
import hashlib as hl
from hashlib import sha1


def password_digest(password, salt):
    # ruleid: python.hashlib-weak-hash
    return hashlib.md5(salt + password.encode()).hexdigest()


def sign(payload, key):
    # ruleid: python.hashlib-weak-hash
    return hl.sha1(key + payload).digest()


def token_for(user):
    # ruleid: python.hashlib-weak-hash
    return sha1(user.email.encode()).hexdigest()


def etag(body):
    # ok: python.hashlib-weak-hash
    return hashlib.md5(body, usedforsecurity=False).hexdigest()


def strong_digest(data):
    # ok: python.hashlib-weak-hash
    return hashlib.sha256(data).hexdigest()


def cache_key(request):
    # ruleid: python.hashlib-weak-hash
    return hashlib.md5(request.path.encode()).hexdigest()
