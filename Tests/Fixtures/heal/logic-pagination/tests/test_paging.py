import pytest

from paging import page, page_count


def test_invalid_page_size():
    with pytest.raises(ValueError):
        page_count(10, 0)


def test_partial_last_page():
    assert page_count(11, 5) == 3
    assert page_count(7, 3) == 3


def test_page_slices():
    items = list(range(1, 8))
    assert page(items, 1, 3) == [1, 2, 3]
    assert page(items, 3, 3) == [7]


def test_exact_multiple():
    assert page_count(10, 5) == 2


def test_no_items():
    assert page_count(0, 5) == 0
