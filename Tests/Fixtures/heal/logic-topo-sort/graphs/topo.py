from collections import defaultdict


def _link(edges, indegree, before, after):
    edges[before].append(after)
    indegree[after] += 1


def topo_sort(nodes, constraints):
    """Nodes ordered so that for each (before, after) pair ``before`` comes first.

    Among nodes that are ready at the same time the smallest comes first.
    Raises ValueError when the constraints contain a cycle.
    """
    edges = defaultdict(list)
    indegree = {node: 0 for node in nodes}
    for before, after in constraints:
        _link(edges, indegree, after, before)
    ready = sorted(node for node, degree in indegree.items() if degree == 0)
    order = []
    while ready:
        node = ready.pop(0)
        order.append(node)
        for nxt in edges[node]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                ready.append(nxt)
                ready.sort()
    if len(order) != len(indegree):
        raise ValueError("constraints contain a cycle")
    return order
