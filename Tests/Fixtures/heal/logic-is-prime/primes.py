"""Primality by trial division and a list of primes."""


def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d < n:
        if n % d == 0:
            return False
        d += 1
    return True


def primes_below(limit):
    return [n for n in range(limit) if is_prime(n)]
