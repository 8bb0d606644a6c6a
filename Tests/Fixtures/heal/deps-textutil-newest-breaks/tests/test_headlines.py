from headlines import TEASER_WIDTH, anchor, teaser


def test_short_headline_unchanged():
    assert teaser("Rain again") == "Rain again"


def test_long_headline_is_cut_to_width():
    text = teaser("City council approves the new riverside park plan")
    assert text == "City council approves..."
    assert len(text) == TEASER_WIDTH


def test_anchor_uses_underscores():
    assert anchor("Local News: Sports") == "local_news_sports"


def test_anchor_of_empty_headline():
    assert anchor("") == ""
