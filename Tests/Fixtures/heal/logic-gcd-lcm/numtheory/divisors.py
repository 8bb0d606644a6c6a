def gcd(a, b):
    """Greatest common divisor of two non-negative integers."""
    while b:
        a, b = b, a // b
    return a


def lcm(a, b):
    if a == 0 or b == 0:
        return 0
    return a * b // gcd(a, b)


def reduce_fraction(num, den):
    g = gcd(abs(num), abs(den))
    return num // g, den // g
