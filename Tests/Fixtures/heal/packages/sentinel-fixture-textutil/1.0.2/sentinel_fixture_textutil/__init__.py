"""Small text helpers: slugs and truncation (fixture package, version 1.0.2)."""

__version__ = "1.0.2"


def slugify(text, sep="-"):
    """Lower-case words of ``text`` joined by ``sep``; only letters and digits survive."""
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
    return sep.join(words)


def truncate(text, width, suffix="..."):
    """``text`` cut to at most ``width`` characters, ending in ``suffix`` when cut."""
    if len(text) <= width:
        return text
    return text[: max(width - len(suffix), 0)] + suffix
