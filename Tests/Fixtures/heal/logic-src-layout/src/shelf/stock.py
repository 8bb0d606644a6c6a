def below_threshold(levels, threshold):
    """Names of the items whose count has fallen to ``threshold`` or below it, in order."""
    low = []
    for name, count in levels.items():
        if count < threshold:
            low.append(name)
    return low


def reorder_quantity(count, target):
    """How many to order to bring ``count`` up to ``target`` (never negative)."""
    if count >= target:
        return 0
    return target - count


def total_stock(levels):
    """Every item's count, added up."""
    return sum(levels.values())
