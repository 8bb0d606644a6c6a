from modpow import pow_mod


def test_zero_exponent():
    assert pow_mod(5, 0, 7) == 1


def test_modulus_one():
    assert pow_mod(5, 0, 1) == 0


def test_exponent_one():
    assert pow_mod(10, 1, 7) == 3


def test_power_of_two():
    assert pow_mod(2, 10, 1000) == 24


def test_matches_builtin():
    for base, exp, mod in [(3, 7, 11), (7, 13, 100), (123, 45, 67)]:
        assert pow_mod(base, exp, mod) == pow(base, exp, mod)


def test_result_is_int():
    assert isinstance(pow_mod(3, 5, 7), int)
