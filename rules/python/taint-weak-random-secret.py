import random
import secrets
import string
import uuid

ALPHABET = string.ascii_letters + string.digits


def reset_link(email):
    # ruleid: python.taint-weak-random-secret
    reset_token = "".join(random.choice(ALPHABET) for _ in range(32))
    return f"https://example.com/reset?email={email}&token={reset_token}"


def reset_link_secure(email):
    # ok: python.taint-weak-random-secret
    reset_token = "".join(secrets.choice(ALPHABET) for _ in range(32))
    return f"https://example.com/reset?email={email}&token={reset_token}"


def one_time_code():
    # ruleid: python.taint-weak-random-secret
    code = random.randint(0, 999999)
    return f"{code:06d}"


def one_time_code_secure():
    # ok: python.taint-weak-random-secret
    code = secrets.randbelow(1_000_000)
    return f"{code:06d}"


def backoff(attempt):
    # ok: python.taint-weak-random-secret
    delay = 2**attempt + random.random()
    return delay


def api_key_from_bits():
    bits = random.getrandbits(128)
    # ruleid: python.taint-weak-random-secret
    api_key = "%032x" % bits
    return api_key


def store_key(model):
    value = "%032x" % random.getrandbits(128)
    # ruleid: python.taint-weak-random-secret
    model.objects.create(owner="svc", key=value)


def session_id_uuid1(response):
    sid = str(uuid.uuid1())
    # ruleid: python.taint-weak-random-secret
    response.set_cookie("sid", sid)


def session_id_uuid4(response):
    sid = str(uuid.uuid4())
    # ok: python.taint-weak-random-secret
    response.set_cookie("sid", sid)


class RunMetadata:
    def __init__(self):
        # A run's name, only used for a temporary file: the name alone proves no secret.
        # ok: python.taint-weak-random-secret
        self.session_id = "".join(random.choice("abcdef") for _ in range(8))
        self.path = "/var/tmp/run-" + self.session_id


class Tokens:
    def __init__(self, system):
        self.rng = random.SystemRandom() if system else random.Random()
        self.weak = random.Random(1234)
        self.strong = random.SystemRandom()

    def weak_nonce(self):
        # ruleid: python.taint-weak-random-secret
        nonce = "%016x" % self.weak.getrandbits(64)
        return nonce

    def strong_nonce(self):
        # ok: python.taint-weak-random-secret
        nonce = "%016x" % self.strong.getrandbits(64)
        return nonce


def csrf(session):
    # ruleid: python.taint-weak-random-secret
    session["csrf"] = "".join(random.choices(ALPHABET, k=40))


def preferences(session):
    # ok: python.taint-weak-random-secret
    session["theme"] = random.choice(["light", "dark"])


def sample_rows(rows):
    # ok: python.taint-weak-random-secret
    status_code = random.choice([200, 503])
    # ok: python.taint-weak-random-secret
    cache_key = random.choice(rows)
    return status_code, cache_key
