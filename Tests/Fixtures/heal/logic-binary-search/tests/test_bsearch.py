from search import binary_search, contains


def test_middle_element():
    assert binary_search([1, 3, 5, 7, 9], 5) == 2


def test_empty_list():
    assert binary_search([], 4) == -1


def test_absent_value():
    assert binary_search([1, 3, 5, 7, 9], 4) == -1
    assert not contains([2, 4, 6], 5)


def test_first_and_last_elements():
    assert binary_search([1, 3, 5, 7, 9], 1) == 0
    assert binary_search([1, 3, 5, 7, 9], 9) == 4


def test_single_element():
    assert binary_search([4], 4) == 0
    assert contains([4], 4)


def test_every_element_is_found():
    items = [2, 4, 8, 16, 32, 64]
    assert [binary_search(items, x) for x in items] == list(range(len(items)))
