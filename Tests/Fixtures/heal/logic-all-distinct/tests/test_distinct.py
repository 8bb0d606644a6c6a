from distinct import all_distinct, first_duplicate


def test_duplicates_found():
    assert not all_distinct([1, 2, 1])
    assert not all_distinct("hello")


def test_first_duplicate():
    assert first_duplicate([3, 1, 4, 1, 5, 3]) == 1
    assert first_duplicate([1, 2, 3]) is None


def test_distinct_items():
    assert all_distinct([1, 2, 3])
    assert all_distinct("abc")


def test_empty_is_distinct():
    assert all_distinct([])
