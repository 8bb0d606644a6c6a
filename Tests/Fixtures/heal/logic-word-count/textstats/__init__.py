from .words import top_words, word_counts

__all__ = ["top_words", "word_counts"]
