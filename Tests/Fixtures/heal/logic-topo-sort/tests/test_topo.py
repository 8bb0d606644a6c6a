import pytest

from graphs.topo import topo_sort


def test_no_constraints_sorted():
    assert topo_sort(["c", "a", "b"], []) == ["a", "b", "c"]


def test_empty():
    assert topo_sort([], []) == []


def test_cycle_detected():
    with pytest.raises(ValueError):
        topo_sort(["a", "b"], [("a", "b"), ("b", "a")])


def test_chain():
    assert topo_sort(["a", "b", "c"], [("c", "b"), ("b", "a")]) == ["c", "b", "a"]


def test_build_steps():
    steps = ["compile", "fetch", "link", "test"]
    constraints = [("fetch", "compile"), ("compile", "link"), ("link", "test")]
    assert topo_sort(steps, constraints) == ["fetch", "compile", "link", "test"]
