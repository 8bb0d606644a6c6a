import hashlib
from hashlib import new as new_hash


def fingerprint(data):
    # ruleid: python.hashlib-new-weak-hash
    return hashlib.new("md5", data).hexdigest()


def legacy_signature(data):
    # ruleid: python.hashlib-new-weak-hash
    h = new_hash(name="SHA1", data=data)
    return h.hexdigest()


def cache_key(data):
    # ok: python.hashlib-new-weak-hash
    return hashlib.new("md5", data, usedforsecurity=False).hexdigest()


def digest(data):
    # ok: python.hashlib-new-weak-hash
    return hashlib.new("sha256", data).hexdigest()


def file_checksum(data):
    # ruleid: python.hashlib-new-weak-hash
    return hashlib.new("sha1", data).hexdigest()
