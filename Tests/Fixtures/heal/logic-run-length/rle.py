import re


def encode(text):
    """Run-length encoding: "aaab" -> "3a1b"."""
    if not text:
        return ""
    out = []
    current, count = text[0], 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            out.append(f"{count}{current}")
            current, count = ch, 0
    out.append(f"{count}{current}")
    return "".join(out)


def decode(encoded):
    return "".join(ch * int(n) for n, ch in re.findall(r"(\d+)(\D)", encoded))
