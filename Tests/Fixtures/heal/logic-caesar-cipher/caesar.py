import string


def shift_char(ch, shift):
    if ch in string.ascii_lowercase:
        base = ord("a")
    elif ch in string.ascii_uppercase:
        base = ord("A")
    else:
        return ch
    return chr((ord(ch) - base - shift) % 26 + base)


def encrypt(text, shift):
    return "".join(shift_char(ch, shift) for ch in text)


def decrypt(text, shift):
    return encrypt(text, -shift)
