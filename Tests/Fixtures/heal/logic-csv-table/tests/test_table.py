from table import parse_header, parse_rows, to_csv

TEXT = "name, age\nAda, 36\nAlan, 41\n"


def test_header():
    assert parse_header(TEXT) == ["name", "age"]


def test_empty_text():
    assert parse_header("") == []
    assert parse_rows("") == []


def test_to_csv():
    assert to_csv(["a", "b"], [{"a": 1, "b": 2}, {"a": 3}]) == "a,b\n1,2\n3,"


def test_rows():
    assert parse_rows(TEXT) == [{"name": "Ada", "age": "36"}, {"name": "Alan", "age": "41"}]


def test_header_only():
    assert parse_rows("x,y\n") == []
