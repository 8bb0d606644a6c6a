"""Small text helpers (fixture package, version 2.0.0).

2.0.0 breaks the 1.x API: ``truncate`` is now ``shorten`` (the marker is called
``placeholder`` and is not counted in ``width``) and ``slugify`` takes ``separator``.
"""

__version__ = "2.0.0"


def slugify(text, separator="-"):
    """Lower-case words of ``text`` joined by ``separator``; only letters and digits survive."""
    words = []
    word = ""
    for ch in text.lower():
        if ch.isalnum():
            word += ch
        elif word:
            words.append(word)
            word = ""
    if word:
        words.append(word)
    return separator.join(words)


def shorten(text, width, placeholder="\u2026"):
    """The first ``width`` characters of ``text`` followed by ``placeholder`` when cut."""
    if len(text) <= width:
        return text
    return text[:width] + placeholder
