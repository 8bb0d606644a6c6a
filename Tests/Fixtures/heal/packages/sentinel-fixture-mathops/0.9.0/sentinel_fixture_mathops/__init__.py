"""Number helpers (fixture package, version 0.9.0)."""

__version__ = "0.9.0"


def clamp(value, low, high):
    """``value`` limited to the closed range [low, high]."""
    return max(low, min(value, high))


def parse_number(text):
    """An int or float from ``text`` (surrounding blanks ignored)."""
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return float(text)


def mean(values):
    """Arithmetic mean of a non-empty sequence."""
    return sum(values) / len(values)
