import marshal
from marshal import loads as unmarshal


def read_code(path):
    with open(path, "rb") as f:
        f.read(16)
        # ruleid: python.marshal-load
        return marshal.load(f)


def from_wire(data):
    # ruleid: python.marshal-load
    return unmarshal(data)


def to_wire(obj):
    # ok: python.marshal-load
    return marshal.dumps(obj)


def write_code(code, f):
    # ok: python.marshal-load
    marshal.dump(code, f)
