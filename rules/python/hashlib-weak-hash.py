import hashlib
import hashlib as hl
from hashlib import md5, sha1


def password_digest(password, salt):
    # ruleid: python.hashlib-weak-hash
    return hashlib.md5(salt + password.encode()).hexdigest()


def sign(payload, key):
    # ruleid: python.hashlib-weak-hash
    return hl.sha1(key + payload).digest()


def token_for(user):
    # ruleid: python.hashlib-weak-hash
    return sha1(user.email.encode()).hexdigest()


class MD5PasswordHasher:
    def encode(self, password, salt):
        # The data hashed is a password, whatever the method is called.
        # ruleid: python.hashlib-weak-hash
        return "md5$%s$%s" % (salt, hashlib.md5((salt + password).encode()).hexdigest())


def remember(user, raw):
    # ruleid: python.hashlib-weak-hash
    user.password_hash = md5(raw).hexdigest()


def etag(body):
    # ok: python.hashlib-weak-hash
    return hashlib.md5(body, usedforsecurity=False).hexdigest()


def strong_digest(data):
    # ok: python.hashlib-weak-hash
    return hashlib.sha256(data).hexdigest()


def cache_key(request):
    # A cache key is no security control (hashlib-weak-hash-audit lists it, at low).
    # ok: python.hashlib-weak-hash
    return hashlib.md5(request.path.encode()).hexdigest()


def md5_not_for_security(data):
    # ok: python.hashlib-weak-hash
    return hashlib.md5(data).hexdigest()


def _sqlite_sha1(text):
    # SQL's SHA1() function, computed in Python.
    # ok: python.hashlib-weak-hash
    return sha1(text.encode()).hexdigest()


def rate_limit_bucket(salt, client_ip):
    # ok: python.hashlib-weak-hash
    return hashlib.md5(f"{salt}:{client_ip}".encode()).hexdigest()
