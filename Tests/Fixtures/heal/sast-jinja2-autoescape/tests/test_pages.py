import jinja2
import pytest

from pages import render


def test_greeting():
    assert render("greeting.html", name="Ada") == "<p>Hello, Ada!</p>"


def test_list():
    assert render("list.html", items=["one", "two"]) == "<ul><li>one</li><li>two</li></ul>"


def test_empty_list():
    assert render("list.html", items=[]) == "<ul></ul>"


def test_unknown_template():
    with pytest.raises(jinja2.TemplateNotFound):
        render("missing.html")
