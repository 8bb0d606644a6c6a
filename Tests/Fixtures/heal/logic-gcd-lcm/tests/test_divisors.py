from numtheory.divisors import gcd, lcm, reduce_fraction


def test_gcd_with_zero():
    assert gcd(5, 0) == 5
    assert gcd(0, 5) == 5


def test_gcd_of_equal_numbers():
    assert gcd(7, 7) == 7


def test_lcm_with_zero():
    assert lcm(0, 9) == 0


def test_gcd_general():
    assert gcd(12, 8) == 4
    assert gcd(48, 18) == 6
    assert gcd(17, 5) == 1


def test_lcm_general():
    assert lcm(4, 6) == 12


def test_reduce_fraction():
    assert reduce_fraction(6, 8) == (3, 4)
