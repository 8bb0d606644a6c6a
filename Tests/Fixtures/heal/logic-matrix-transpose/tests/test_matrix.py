import pytest

from linalg.matrix import multiply, shape, transpose


def test_shape():
    assert shape([[1, 2, 3], [4, 5, 6]]) == (2, 3)
    assert shape([]) == (0, 0)


def test_transpose_square():
    assert transpose([[1, 2], [3, 4]]) == [[1, 3], [2, 4]]


def test_multiply_square():
    assert multiply([[1, 2], [3, 4]], [[5, 6], [7, 8]]) == [[19, 22], [43, 50]]


def test_transpose_wide():
    assert transpose([[1, 2, 3], [4, 5, 6]]) == [[1, 4], [2, 5], [3, 6]]


def test_transpose_tall():
    assert transpose([[1], [2], [3]]) == [[1, 2, 3]]


def test_multiply_non_square():
    assert multiply([[1, 2, 3]], [[1], [2], [3]]) == [[14]]
    with pytest.raises(ValueError):
        multiply([[1, 2]], [[1, 2]])
