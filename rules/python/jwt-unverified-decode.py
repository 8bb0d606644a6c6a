import jwt


def read_claims(token, key):
    # ruleid: python.jwt-unverified-decode
    return jwt.decode(token, key, algorithms=["HS256"], options={"verify_signature": False})


def read_claims_legacy(token, key):
    # ruleid: python.jwt-unverified-decode
    return jwt.decode(token, key, verify=False)


def peek(token, key):
    opts = {"verify_signature": False, "verify_exp": False}
    # ruleid: python.jwt-unverified-decode
    return jwt.decode(token, key, algorithms=["HS256"], options=opts)


def verify(token, key):
    # ok: python.jwt-unverified-decode
    return jwt.decode(token, key, algorithms=["HS256"])


def verify_without_expiry(token, key):
    # ok: python.jwt-unverified-decode
    return jwt.decode(token, key, algorithms=["HS256"], options={"verify_exp": False})


def verify_after_reset(token, key):
    opts = {"verify_signature": False}
    opts = {"verify_signature": True}
    # ok: python.jwt-unverified-decode
    return jwt.decode(token, key, algorithms=["HS256"], options=opts)
