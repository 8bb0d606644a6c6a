import hashlib
from hashlib import new as new_hash


def password_fingerprint(password):
    # ruleid: python.hashlib-new-weak-hash
    return hashlib.new("md5", password).hexdigest()


def legacy_signature(data):
    # ruleid: python.hashlib-new-weak-hash
    h = new_hash(name="SHA1", data=data)
    return h.hexdigest()


def api_token(seed):
    # ruleid: python.hashlib-new-weak-hash
    return hashlib.new("sha1", seed).hexdigest()


def cache_key(data):
    # ok: python.hashlib-new-weak-hash
    return hashlib.new("md5", data, usedforsecurity=False).hexdigest()


def digest(password):
    # ok: python.hashlib-new-weak-hash
    return hashlib.new("sha256", password).hexdigest()


def file_checksum(data):
    # A checksum against accidents (hashlib-weak-hash-audit lists it, at low).
    # ok: python.hashlib-new-weak-hash
    return hashlib.new("sha1", data).hexdigest()
