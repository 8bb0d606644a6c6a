import hashlib
from hashlib import new as new_hash
from hashlib import sha1

KEY = hashlib.md5(b"module").hexdigest()  # ruleid: python.hashlib-weak-hash-audit


def cache_key(request):
    # ruleid: python.hashlib-weak-hash-audit
    return hashlib.md5(request.path.encode()).hexdigest()


def etag(body):
    # ok: python.hashlib-weak-hash-audit
    return hashlib.md5(body, usedforsecurity=False).hexdigest()


def md5_not_for_security(data):
    # ruleid: python.hashlib-weak-hash-audit
    return hashlib.md5(data).hexdigest()


def file_checksum(data):
    # ruleid: python.hashlib-weak-hash-audit
    return hashlib.new("sha1", data).hexdigest()


def slot_name(text):
    # ruleid: python.hashlib-weak-hash-audit
    unique = new_hash(name="md5", data=text.encode()).hexdigest()
    return unique


def thumbnail_path(url):
    # ruleid: python.hashlib-weak-hash-audit
    return "thumbs/%s.jpg" % sha1(url.encode()).hexdigest()


def password_digest(password, salt):
    # A password: hashlib-weak-hash reports it, at high.
    # ok: python.hashlib-weak-hash-audit
    return hashlib.md5(salt + password.encode()).hexdigest()


def sign(payload):
    # ok: python.hashlib-weak-hash-audit
    return hashlib.new("sha1", payload).digest()


def store(user, raw):
    # ok: python.hashlib-weak-hash-audit
    user.password_hash = sha1(raw).hexdigest()


def strong(data):
    # ok: python.hashlib-weak-hash-audit
    return hashlib.sha256(data).hexdigest()
