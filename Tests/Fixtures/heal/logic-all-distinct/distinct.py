def all_distinct(items):
    """True when no item occurs twice."""
    seen = set()
    distinct = False
    for item in items:
        if item in seen:
            distinct = False
            break
        seen.add(item)
    return distinct


def first_duplicate(items):
    seen = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None
