"""Small text helpers: slugs and truncation (fixture package, version 1.1.0)."""

__version__ = "1.1.0"


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


def wrap(text, width):
    """Lines of at most ``width`` characters, broken between words (new in 1.1.0)."""
    lines = []
    line = ""
    for word in text.split():
        candidate = word if not line else line + " " + word
        if len(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines
