import bcrypt
from django.contrib.auth.hashers import make_password
from passlib.hash import pbkdf2_sha256
from werkzeug.security import generate_password_hash


def seed(session, User, hash_password, user):
    # ruleid: python.password-hash-of-literal
    session.add(User("admin@example.com", bcrypt.hashpw(b"admin", bcrypt.gensalt())))
    # ruleid: python.password-hash-of-literal
    admin_hash = generate_password_hash("SuperSecret")
    # ruleid: python.password-hash-of-literal
    rows = [("jane", make_password("password123"))]
    # ruleid: python.password-hash-of-literal
    legacy = pbkdf2_sha256.encrypt("123456")
    # ruleid: python.password-hash-of-literal
    users = [("john", "john@example.com", hash_password("super-secret"))]
    # ruleid: python.password-hash-of-literal
    user.set_password("changeme")
    return admin_hash, rows, legacy, users


def register(form, user, hash_password):
    # ok: python.password-hash-of-literal
    digest = generate_password_hash(form["password"])
    # ok: python.password-hash-of-literal
    other = hash_password(form["password"])
    # ok: python.password-hash-of-literal
    user.set_password("")
    # ok: python.password-hash-of-literal
    name = hash_name("admin")
    # ok: python.password-hash-of-literal
    blank = bcrypt.hashpw(b"", bcrypt.gensalt())
    return digest, other, name, blank
