# Regenerates pip-lines.json: what pip (24.2, auto_decode + preprocess) reads from random
# requirements-like bytes, for HostileLockfileInputTests.pipReadsTheseLinesAndSoDoesSentinel.
# Run with a Python that has pip: python3 generate.py
import json, random, base64
from pip._internal.req.req_file import preprocess
from pip._internal.utils.encoding import auto_decode
rng = random.Random(26)
alphabet = ["a", "b", "=", "1", ".", " ", " ", "\t", "#", "#", "\\", "\\", "\n", "\n", "\r", "\r\n", "\x0b", "\x0c",
            "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u2028", "\u2029", "\u00a0", "\u3000", "-", "r", "é", "€", "ж"]
# Declared single-byte codecs besides latin-1: pip decodes them, so must Sentinel (a pin hidden in
# cp1252 text is still installed). Bytes a codec cannot decode make pip fail: such inputs are skipped.
declared = ["latin-1", "cp1252", "windows-1251", "koi8_r", "iso-8859-15", "latin2", "cp1250"]
cases = []
while len(cases) < 500:
    text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
    kind = rng.random()
    if kind < 0.1:
        data = b"\xef\xbb\xbf" + text.encode()
    elif kind < 0.2:
        data = text.encode("utf-16")
    elif kind < 0.4:
        codec = rng.choice(declared)
        text = "".join(c for c in text if c.encode(codec, errors="ignore"))
        data = ("# -*- coding: %s -*-\n" % codec + text).encode(codec)
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
