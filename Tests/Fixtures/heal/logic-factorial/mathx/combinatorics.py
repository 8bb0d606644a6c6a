def factorial(n):
    if n < 0:
        raise ValueError("factorial of a negative number")
    result = 1
    for i in range(1, n):
        result *= i
    return result


def permutations(n, k):
    """Ordered selections of k items out of n."""
    if k > n:
        return 0
    return factorial(n) // factorial(n - k)
