import pytest

from mathx.combinatorics import factorial, permutations


def test_factorial_zero_and_one():
    assert factorial(0) == 1
    assert factorial(1) == 1


def test_negative_rejected():
    with pytest.raises(ValueError):
        factorial(-3)


def test_permutations_more_than_available():
    assert permutations(3, 5) == 0


def test_factorial_five():
    assert factorial(5) == 120


def test_permutations():
    assert permutations(5, 2) == 20
    assert permutations(4, 4) == 24
