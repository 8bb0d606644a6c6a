import pytest

from containers.stack import Stack


def test_new_stack_is_empty():
    assert len(Stack()) == 0


def test_push_then_pop_is_lifo():
    s = Stack()
    for item in (1, 2, 3):
        s.push(item)
    assert [s.pop(), s.pop(), s.pop()] == [3, 2, 1]


def test_pop_empty_raises():
    with pytest.raises(IndexError):
        Stack().pop()


def test_peek_returns_top_without_removing():
    s = Stack()
    s.push("a")
    s.push("b")
    assert s.peek() == "b"
    assert len(s) == 2


def test_peek_single():
    s = Stack()
    s.push(42)
    assert s.peek() == 42
