from rle import decode, encode


def test_empty():
    assert encode("") == ""
    assert decode("") == ""


def test_single_run():
    assert encode("aaaa") == "4a"


def test_decode():
    assert decode("3a1b2c") == "aaabcc"


def test_several_runs():
    assert encode("aaabcc") == "3a1b2c"


def test_round_trip():
    for text in ("abc", "zzzzzzzzzzzz", "aabbaa"):
        assert decode(encode(text)) == text
