from textstats import top_words, word_counts


def test_empty_text():
    assert word_counts("") == {}


def test_only_punctuation():
    assert word_counts("-- ... !") == {}


def test_top_of_empty_text():
    assert top_words("", 3) == []


def test_counts_are_case_insensitive():
    assert word_counts("The cat saw the dog.") == {"the": 2, "cat": 1, "saw": 1, "dog": 1}


def test_top_words_ties_alphabetical():
    assert top_words("b a c b a", 2) == ["a", "b"]


def test_top_zero_words():
    assert top_words("a b b", 0) == []
