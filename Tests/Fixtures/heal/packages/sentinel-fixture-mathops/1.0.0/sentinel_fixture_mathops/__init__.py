"""Number helpers (fixture package, version 1.0.0)."""

__version__ = "1.0.0"

MAX_DIGITS = 100


def clamp(value, low, high):
    """``value`` limited to the closed range [low, high]."""
    return max(low, min(value, high))


def parse_number(text):
    """An int or float from ``text`` (surrounding blanks ignored).

    1.0.0: text longer than MAX_DIGITS characters is refused (ValueError) instead of
    being converted, which took quadratic time on attacker-sized input.
    """
    text = text.strip()
    if len(text) > MAX_DIGITS:
        raise ValueError("number too long")
    try:
        return int(text)
    except ValueError:
        return float(text)


def mean(values):
    """Arithmetic mean of a non-empty iterable."""
    values = list(values)
    return sum(values) / len(values)
