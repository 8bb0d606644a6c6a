import json


def load_config(path):
    config = {}
    # ruleid: python.try-except-pass
    try:
        with open(path) as f:
            config = json.load(f)
    except:
        pass
    return config


def cleanup(conn):
    # ruleid: python.try-except-pass
    try:
        conn.close()
    except Exception:
        pass


def parse_port(value):
    # ok: python.try-except-pass
    try:
        return int(value)
    except ValueError:
        return 8080


def read_optional(path):
    # ok: python.try-except-pass
    try:
        return open(path).read()
    except Exception as exc:
        log.warning("cannot read %s: %s", path, exc)
        return None
