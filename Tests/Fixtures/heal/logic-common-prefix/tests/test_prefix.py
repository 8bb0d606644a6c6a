from prefix import common_prefix, longest_common_prefix


def test_identical():
    assert common_prefix("abc", "abc") == "abc"


def test_empty_first():
    assert common_prefix("", "abc") == ""


def test_no_words():
    assert longest_common_prefix([]) == ""


def test_partial():
    assert common_prefix("flower", "flow") == "flow"
    assert common_prefix("abcd", "abxy") == "ab"


def test_nothing_shared():
    assert common_prefix("dog", "cat") == ""


def test_many_words():
    assert longest_common_prefix(["interview", "internet", "interval"]) == "inter"
