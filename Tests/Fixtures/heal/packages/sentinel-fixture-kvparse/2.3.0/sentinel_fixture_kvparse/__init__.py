"""Parse ``key = value`` configuration text (fixture package, version 2.3.0)."""

import os
import re

__version__ = "2.3.0"

_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def parse(text, strict=False):
    """A dict of the ``key = value`` lines in ``text``; ``#`` starts a comment.

    ``${NAME}`` in a value is replaced by the environment variable NAME.
    With ``strict``, a line without ``=`` raises ValueError; otherwise it is skipped.
    """
    result = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            if strict:
                raise ValueError(f"line {number}: expected key = value")
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        result[key] = _REFERENCE.sub(lambda m: os.environ.get(m.group(1), ""), value)
    return result
