def max_subarray(values):
    """Largest sum of a non-empty contiguous slice of ``values``."""
    if not values:
        raise ValueError("empty input")
    best = current = values[0]
    for x in values[1:]:
        current = max(x, current + x)
        best = max(best, x)
    return best
