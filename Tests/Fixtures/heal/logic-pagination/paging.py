def page_count(total, per_page):
    """Pages needed to show ``total`` items, ``per_page`` on each page."""
    if per_page <= 0:
        raise ValueError("per_page must be positive")
    return (total + per_page) // per_page


def page(items, number, per_page):
    """Items on page ``number`` (counted from 1)."""
    start = (number - 1) * per_page
    return items[start:start + per_page]
