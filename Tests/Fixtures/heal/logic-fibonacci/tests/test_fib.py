import pytest

from fib import fib, fib_sequence


def test_negative_rejected():
    with pytest.raises(ValueError):
        fib(-1)


def test_fib_zero():
    assert fib(0) == 0


def test_fib_two():
    assert fib(2) == 1


def test_fib_one():
    assert fib(1) == 1


def test_fib_ten():
    assert fib(10) == 55


def test_sequence():
    assert fib_sequence(8) == [0, 1, 1, 2, 3, 5, 8, 13]
