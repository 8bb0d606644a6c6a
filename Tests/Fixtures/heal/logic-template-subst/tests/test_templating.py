from templating import expand, placeholder


def test_placeholder():
    assert placeholder("name") == "{name}"


def test_no_values():
    assert expand("Hello {name}", {}) == "Hello {name}"


def test_no_placeholders_in_template():
    assert expand("plain text", {"x": "y"}) == "plain text"


def test_single_placeholder():
    assert expand("Hello {name}!", {"name": "Ada"}) == "Hello Ada!"


def test_repeated_and_numeric():
    assert expand("{n} + {n} = {sum}", {"n": 2, "sum": 4}) == "2 + 2 = 4"
