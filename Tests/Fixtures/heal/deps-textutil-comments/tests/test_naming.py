import datetime

from blogexport.naming import post_filename, reading_minutes


def test_filename_uses_date_and_slug():
    day = datetime.date(2024, 3, 9)
    assert post_filename("Hello, World!", day) == "2024-03-09-hello-world.html"


def test_filename_of_symbol_only_title():
    day = datetime.date(2024, 1, 1)
    assert post_filename("!!!", day) == "2024-01-01-untitled.html"


def test_reading_time_rounds_up():
    assert reading_minutes("word " * 201) == 2


def test_reading_time_bounds():
    assert reading_minutes("") == 1
    assert reading_minutes("word " * 50000) == 60
