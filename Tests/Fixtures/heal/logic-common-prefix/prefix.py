def common_prefix(a, b):
    """Longest string that both ``a`` and ``b`` start with."""
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[:i + 1]


def longest_common_prefix(words):
    if not words:
        return ""
    result = words[0]
    for word in words[1:]:
        result = common_prefix(result, word)
    return result
