ARITHMETIC = set("0123456789+-*/(). ")


def clean(expr):
    return "".join(ch for ch in expr if ch in ARITHMETIC)
