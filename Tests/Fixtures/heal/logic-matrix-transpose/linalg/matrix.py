def shape(m):
    """(rows, columns) of a rectangular list-of-lists matrix."""
    return (len(m), len(m[0]) if m else 0)


def transpose(m):
    rows, cols = shape(m)
    return [[m[r][c] for r in range(rows)] for c in range(rows)]


def multiply(a, b):
    if shape(a)[1] != shape(b)[0]:
        raise ValueError("incompatible shapes")
    bt = transpose(b)
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]
