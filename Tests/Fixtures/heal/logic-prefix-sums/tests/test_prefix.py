from prefix import RangeSum


def test_length():
    assert len(RangeSum([4, 5, 6])) == 3


def test_prefix_query():
    assert RangeSum([4, 5, 6]).query(0, 2) == 9


def test_whole_range():
    assert RangeSum([1, 2, 3, 4]).query(0, 4) == 10


def test_inner_range():
    assert RangeSum([1, 2, 3, 4]).query(1, 3) == 5


def test_empty_range():
    assert RangeSum([1, 2, 3, 4]).query(2, 2) == 0


def test_negative_values():
    assert RangeSum([5, -3, 2, -1]).query(1, 4) == -2
