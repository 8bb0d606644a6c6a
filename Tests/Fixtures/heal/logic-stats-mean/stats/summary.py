def mean(values):
    """Arithmetic mean, or None for no values."""
    return sum(values) / len(values)


def median(values):
    """Middle value (mean of the two middle ones for even counts), or None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


def spread(values):
    """max - min, or 0 for no values."""
    return max(values) - min(values) if values else 0
