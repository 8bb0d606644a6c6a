PAIRS = {")": "(", "]": "[", "}": "{"}


def is_balanced(text):
    """True when every bracket in ``text`` is closed in the right order."""
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in PAIRS:
            if stack:
                return False
            if stack.pop() != PAIRS[ch]:
                return False
    return not stack
