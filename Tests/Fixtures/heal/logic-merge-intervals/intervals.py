"""Closed integer intervals as (start, end) pairs."""


def merge(intervals):
    """Overlapping or touching intervals merged, sorted by start."""
    merged = []
    for start, end in sorted(intervals):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def total_length(intervals):
    return sum(end - start for start, end in merge(intervals))
