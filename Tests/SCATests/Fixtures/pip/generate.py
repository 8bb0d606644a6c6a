# Regenerates pip-lines.json: what pip (24.2, auto_decode + preprocess) reads from random
# requirements-like bytes, for HostileLockfileInputTests.pipReadsTheseLinesAndSoDoesSentinel.
# Run with a Python that has pip: python3 generate.py
import json, random, base64
from pip._internal.req.req_file import preprocess
from pip._internal.utils.encoding import auto_decode
rng = random.Random(26)
alphabet = ["a", "b", "=", "1", ".", " ", " ", "\t", "#", "#", "\\", "\\", "\n", "\n", "\r", "\r\n", "\x0b", "\x0c",
            "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029", "\u00a0", "\u3000", "-", "r", "é"]
cases = []
while len(cases) < 400:
    text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
    kind = rng.random()
    if kind < 0.1:
        data = b"\xef\xbb\xbf" + text.encode()
    elif kind < 0.2:
        data = text.encode("utf-16")
    elif kind < 0.3:
        try:
            data = ("# -*- coding: latin-1 -*-\n" + text).encode("latin-1")
        except UnicodeEncodeError:
            continue
    else:
        data = text.encode()
    try:
        content = auto_decode(data)
    except Exception:
        continue
    lines = [[n, l] for n, l in preprocess(content)]
    cases.append({"input": base64.b64encode(data).decode(), "lines": lines})
json.dump(cases, open("pip-lines.json", "w"), ensure_ascii=True, separators=(",", ":"))
print(len(cases), sum(1 for c in cases if c["lines"]))
