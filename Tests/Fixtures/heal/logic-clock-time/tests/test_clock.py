import pytest

from clock import is_valid, minutes_since_midnight, parse_time


def test_parse_valid():
    assert parse_time("09:30") == (9, 30)
    assert parse_time("0:00") == (0, 0)


def test_minutes_since_midnight():
    assert minutes_since_midnight("23:59") == 1439


def test_malformed():
    for text in ("930", "ab:cd", ":15", ""):
        with pytest.raises(ValueError):
            parse_time(text)


def test_both_fields_out_of_range():
    assert not is_valid(30, 75)


def test_hours_out_of_range():
    with pytest.raises(ValueError):
        parse_time("24:00")


def test_minutes_out_of_range():
    assert not is_valid(12, 60)
