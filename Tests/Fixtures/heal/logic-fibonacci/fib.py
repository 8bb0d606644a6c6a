def fib(n):
    """The n-th Fibonacci number: fib(0) == 0, fib(1) == 1."""
    if n < 0:
        raise ValueError("n must be non-negative")
    a, b = 0, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return a


def fib_sequence(count):
    return [fib(i) for i in range(count)]
