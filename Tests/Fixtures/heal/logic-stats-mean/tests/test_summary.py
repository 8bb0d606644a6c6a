from stats import mean, median, spread


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_mean_single():
    assert mean([7]) == 7


def test_median():
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == 2.5


def test_empty_inputs():
    assert median([]) is None
    assert spread([]) == 0


def test_mean_of_nothing_is_none():
    assert mean([]) is None
