"""Write JSON files atomically: to a temporary file first, then rename over the target."""

import json
import os
import tempfile


def write_json(path, data):
    directory = os.path.dirname(os.path.abspath(path))
    tmp = tempfile.mktemp(suffix=".tmp", dir=directory)
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, sort_keys=True)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
