"""Join user-supplied path parts under a base directory (fixture package, version 3.1.4)."""

import posixpath

__version__ = "3.1.4"


def safe_join(base, *parts):
    """``base`` joined with ``parts``; raises ValueError when the result leaves ``base``.

    3.1.4: the prefix check compares whole path components, so ``/srv/data`` no
    longer accepts ``/srv/data-other``, and absolute parts are refused.
    """
    base = posixpath.normpath(base)
    if any(part.startswith("/") for part in parts):
        raise ValueError("absolute path part")
    joined = posixpath.normpath(posixpath.join(base, *parts))
    if joined != base and not joined.startswith(base.rstrip("/") + "/"):
        raise ValueError("path escapes base directory")
    return joined
