import hashlib

import bcrypt


def hash_password(password):
    return hashlib.sha256(password.encode()).hexdigest()
