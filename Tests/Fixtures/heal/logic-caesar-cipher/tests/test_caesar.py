from caesar import decrypt, encrypt


def test_zero_shift():
    assert encrypt("Hello", 0) == "Hello"


def test_non_letters_unchanged():
    assert encrypt("123 ,.!", 5) == "123 ,.!"


def test_round_trip():
    assert decrypt(encrypt("Attack at Dawn", 11), 11) == "Attack at Dawn"


def test_encrypt_shifts_forward():
    assert encrypt("abc", 1) == "bcd"


def test_wraps_around():
    assert encrypt("xyz", 3) == "abc"
    assert encrypt("XYZ", 3) == "ABC"


def test_decrypt_known_text():
    assert decrypt("Khoor", 3) == "Hello"
