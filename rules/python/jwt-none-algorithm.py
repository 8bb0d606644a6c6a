import jwt
from jwt import encode as jwt_encode


def issue(claims):
    # ruleid: python.jwt-none-algorithm
    return jwt_encode(claims, None, algorithm="none")


def accept(token, key):
    # ruleid: python.jwt-none-algorithm
    return jwt.decode(token, key, algorithms=["HS256", "none"])


def issue_signed(claims, key):
    # ok: python.jwt-none-algorithm
    return jwt.encode(claims, key, algorithm="HS256")


def accept_signed(token, key):
    # ok: python.jwt-none-algorithm
    return jwt.decode(token, key, algorithms=["HS256"])
