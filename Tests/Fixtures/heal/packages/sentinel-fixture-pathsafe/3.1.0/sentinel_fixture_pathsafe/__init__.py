"""Join user-supplied path parts under a base directory (fixture package, version 3.1.0)."""

import posixpath

__version__ = "3.1.0"


def safe_join(base, *parts):
    """``base`` joined with ``parts``; raises ValueError when the result leaves ``base``."""
    joined = posixpath.normpath(posixpath.join(base, *parts))
    if not joined.startswith(base):
        raise ValueError("path escapes base directory")
    return joined
