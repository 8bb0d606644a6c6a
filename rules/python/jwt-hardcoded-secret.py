import os
import jwt

SECRET = 'MYSUPERSECRETKEY'
KEY_FROM_ENV = os.environ["JWT_KEY"]


def login(payload):
    # ruleid: python.jwt-hardcoded-secret
    return jwt.encode(payload, 'csrf_vulneribility', algorithm='HS256')


def login2(payload):
    # ruleid: python.jwt-hardcoded-secret
    token = jwt.encode(
        payload,
        'secret',
        algorithm='HS256'
    )
    return token


def check(token):
    # ruleid: python.jwt-hardcoded-secret
    return jwt.decode(token, SECRET, algorithms=['HS256'])


def check_kw(token):
    # ruleid: python.jwt-hardcoded-secret
    return jwt.decode(token, key="k3y", algorithms=['HS256'])


def check_env(token):
    # ok: python.jwt-hardcoded-secret
    return jwt.decode(token, KEY_FROM_ENV, algorithms=['HS256'])


def check_cfg(token, app):
    # ok: python.jwt-hardcoded-secret
    return jwt.decode(token, app.config["SECRET_KEY"], algorithms=['HS256'])


def peek(token):
    # ok: python.jwt-hardcoded-secret
    return jwt.decode(token, "", options={"verify_signature": False})


def test_token_roundtrip():
    # ok: python.jwt-hardcoded-secret
    assert jwt.decode(jwt.encode({"a": 1}, "k", algorithm="HS256"), "k", algorithms=["HS256"]) == {"a": 1}
