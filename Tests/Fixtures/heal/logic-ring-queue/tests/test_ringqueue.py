import pytest

from ringqueue import RingQueue


def test_push_pop_one():
    q = RingQueue(3)
    q.push("a")
    assert q.pop() == "a"
    assert len(q) == 0


def test_pop_empty():
    with pytest.raises(IndexError):
        RingQueue(2).pop()


def test_full():
    q = RingQueue(2)
    q.push(1)
    q.push(2)
    with pytest.raises(OverflowError):
        q.push(3)


def test_fifo_order():
    q = RingQueue(3)
    for item in (1, 2, 3):
        q.push(item)
    assert [q.pop(), q.pop(), q.pop()] == [1, 2, 3]


def test_wraps_around():
    q = RingQueue(2)
    q.push(1)
    q.push(2)
    assert q.pop() == 1
    q.push(3)
    assert [q.pop(), q.pop()] == [2, 3]
