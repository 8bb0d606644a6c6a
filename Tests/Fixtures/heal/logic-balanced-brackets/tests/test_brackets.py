from brackets import is_balanced


def test_empty_text():
    assert is_balanced("")


def test_text_without_brackets():
    assert is_balanced("hello world")


def test_unclosed():
    assert not is_balanced("((")
    assert not is_balanced("[{")


def test_simple_pairs():
    assert is_balanced("()")
    assert is_balanced("a[b]c")


def test_nested():
    assert is_balanced("{[()()]}")


def test_wrong_order():
    assert not is_balanced("(]")
    assert not is_balanced(")(")
