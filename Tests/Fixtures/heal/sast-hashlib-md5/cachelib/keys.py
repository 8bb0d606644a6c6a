import hashlib
import json


def cache_key(namespace, params):
    """A stable key for ``params`` (a JSON-able dict) in ``namespace``."""
    payload = json.dumps(params, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return namespace + ":" + hashlib.md5(payload).hexdigest()


class ResultCache:
    def __init__(self):
        self._store = {}

    def get_or_compute(self, namespace, params, compute):
        key = cache_key(namespace, params)
        if key not in self._store:
            self._store[key] = compute(**params)
        return self._store[key]
