from primes import is_prime, primes_below


def test_small_numbers_are_not_prime():
    assert not is_prime(0)
    assert not is_prime(1)
    assert not is_prime(-7)


def test_small_primes():
    assert is_prime(2)
    assert is_prime(3)
    assert is_prime(97)


def test_composites_with_small_factor():
    assert not is_prime(15)
    assert not is_prime(91)


def test_squares_of_primes_are_composite():
    assert not is_prime(4)
    assert not is_prime(49)


def test_primes_below_thirty():
    assert primes_below(30) == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
