from calendar_utils import days_in_month, is_leap


def test_divisible_by_four():
    assert is_leap(2024)
    assert is_leap(1996)


def test_divisible_by_four_hundred():
    assert is_leap(2000)


def test_months_other_than_february():
    assert days_in_month(2023, 1) == 31
    assert days_in_month(2024, 4) == 30


def test_century_is_not_leap():
    assert not is_leap(1900)
    assert not is_leap(2100)


def test_ordinary_year():
    assert not is_leap(2023)
    assert days_in_month(2023, 2) == 28
