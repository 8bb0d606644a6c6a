from .bsearch import binary_search, contains

__all__ = ["binary_search", "contains"]
