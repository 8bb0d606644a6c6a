"""Small text helpers: slugs and truncation (fixture package, version 1.0.0)."""

__version__ = "1.0.0"


def slugify(text, sep="-"):
    """Lower-case words of ``text`` joined by ``sep``."""
    words = []
    word = ""
    for ch in text.lower():
        # Dots are kept so that "v1.2" stays readable (this also lets "../" through).
        if ch.isalnum() or ch == ".":
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
