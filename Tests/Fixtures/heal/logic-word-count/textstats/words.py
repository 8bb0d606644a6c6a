import string


def word_counts(text):
    """How often each lower-cased word occurs, punctuation stripped."""
    counts = {}
    for raw in text.split():
        word = raw.strip(string.punctuation).lower()
        if word:
            continue
        counts[word] = counts.get(word, 0) + 1
    return counts


def top_words(text, n):
    """The ``n`` most frequent words, ties broken alphabetically."""
    counts = word_counts(text)
    return sorted(counts, key=lambda w: (-counts[w], w))[:n]
