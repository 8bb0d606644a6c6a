def pow_mod(base, exp, mod):
    """``base ** exp % mod`` by square-and-multiply, for exp >= 0 and mod >= 1."""
    result = 1 % mod
    base %= mod
    while exp > 0:
        if exp % 2 == 1:
            result = result * base % mod
        base = base * base % mod
        exp /= 2
    return result
