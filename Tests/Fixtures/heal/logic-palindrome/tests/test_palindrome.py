from palindrome import is_palindrome, normalize


def test_normalize():
    assert normalize("A man, a plan!") == "amanaplan"


def test_empty_and_single():
    assert is_palindrome("")
    assert is_palindrome("x")


def test_punctuation_only():
    assert is_palindrome("?!")


def test_palindromes():
    assert is_palindrome("abba")
    assert is_palindrome("A man, a plan, a canal: Panama")


def test_not_palindromes():
    assert not is_palindrome("abc")
    assert not is_palindrome("abca")
