def normalize(text):
    """Lower-case letters and digits of ``text``."""
    return "".join(ch.lower() for ch in text if ch.isalnum())


def is_palindrome(text):
    s = normalize(text)
    i, j = 0, len(s) - 1
    while i < j:
        if s[i] == s[j]:
            return False
        i += 1
        j -= 1
    return True
