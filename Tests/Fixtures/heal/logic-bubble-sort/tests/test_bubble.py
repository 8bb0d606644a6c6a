from sorting.bubble import bubble_sort


def test_empty():
    assert bubble_sort([]) == []


def test_single():
    assert bubble_sort([7]) == [7]


def test_all_equal():
    assert bubble_sort([3, 3, 3]) == [3, 3, 3]


def test_unsorted():
    assert bubble_sort([5, 1, 4, 2, 8]) == [1, 2, 4, 5, 8]


def test_already_sorted():
    assert bubble_sort([1, 2, 3]) == [1, 2, 3]


def test_input_not_modified():
    data = [2, 1]
    bubble_sort(data)
    assert data == [2, 1]
