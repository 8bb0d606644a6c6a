from poly import derivative, evaluate


def test_derivative():
    assert derivative([3, 2, 1]) == [6, 2]
    assert derivative([7]) == []


def test_evaluate_at_zero_gives_constant_term():
    assert evaluate([2, 3, 5], 0) == 5
    assert evaluate([4, 0], 0) == 0


def test_evaluate_empty_polynomial():
    assert evaluate([], 3) == 0


def test_evaluate_at_one_sums_coefficients():
    assert evaluate([1, 2, 3], 1) == 6


def test_evaluate_general():
    assert evaluate([2, 0, 1], 3) == 19
    assert evaluate([1, -1], -2) == -3
