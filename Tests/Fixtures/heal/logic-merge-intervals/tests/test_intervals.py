from intervals import merge, total_length


def test_empty():
    assert merge([]) == []


def test_disjoint_intervals_are_sorted():
    assert merge([(5, 6), (1, 2)]) == [(1, 2), (5, 6)]


def test_overlapping():
    assert merge([(1, 4), (2, 6), (8, 10)]) == [(1, 6), (8, 10)]


def test_contained():
    assert merge([(1, 10), (2, 3)]) == [(1, 10)]


def test_touching_intervals_merge():
    assert merge([(1, 3), (3, 5)]) == [(1, 5)]


def test_total_length():
    assert total_length([(0, 2), (2, 4), (10, 11)]) == 5
