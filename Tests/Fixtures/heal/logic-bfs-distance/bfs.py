from collections import deque


def distance(graph, start, goal):
    """Fewest edges from ``start`` to ``goal`` in the adjacency dict ``graph``; -1 if unreachable."""
    if start == goal:
        return 0
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in graph.get(node, ()):
            if nxt in dist:
                continue
            dist[nxt] = dist[start] + 1
            if nxt == goal:
                return dist[nxt]
            queue.append(nxt)
    return -1
