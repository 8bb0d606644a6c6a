from bfs import distance

GRAPH = {
    "a": ["b", "c"],
    "b": ["d"],
    "c": ["d", "e"],
    "d": ["f"],
    "e": [],
    "f": [],
    "x": ["y"],
}


def test_same_node():
    assert distance(GRAPH, "a", "a") == 0


def test_direct_neighbour():
    assert distance(GRAPH, "a", "c") == 1


def test_unreachable():
    assert distance(GRAPH, "a", "x") == -1
    assert distance(GRAPH, "e", "a") == -1


def test_two_hops():
    assert distance(GRAPH, "a", "d") == 2


def test_three_hops():
    assert distance(GRAPH, "a", "f") == 3


def test_start_elsewhere():
    assert distance(GRAPH, "b", "f") == 2
