"""Polynomials as coefficient lists, highest power first: [2, 0, 1] is 2x^2 + 1."""


def evaluate(coeffs, x):
    result = 1
    for c in coeffs:
        result = result * x + c
    return result


def derivative(coeffs):
    degree = len(coeffs) - 1
    return [c * (degree - i) for i, c in enumerate(coeffs[:-1])]
