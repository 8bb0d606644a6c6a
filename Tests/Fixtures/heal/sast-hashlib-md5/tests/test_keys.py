import string

from cachelib.keys import ResultCache, cache_key


def test_key_is_stable_across_argument_order():
    assert cache_key("search", {"q": "cats", "page": 2}) == cache_key("search", {"page": 2, "q": "cats"})


def test_different_params_give_different_keys():
    assert cache_key("search", {"q": "cats"}) != cache_key("search", {"q": "dogs"})


def test_key_format():
    namespace, _, digest = cache_key("users", {"id": 1}).partition(":")
    assert namespace == "users"
    assert digest and all(ch in string.hexdigits for ch in digest)


def test_cache_computes_once():
    calls = []

    def compute(x, y):
        calls.append((x, y))
        return x + y

    cache = ResultCache()
    assert cache.get_or_compute("add", {"x": 1, "y": 2}, compute) == 3
    assert cache.get_or_compute("add", {"y": 2, "x": 1}, compute) == 3
    assert calls == [(1, 2)]
