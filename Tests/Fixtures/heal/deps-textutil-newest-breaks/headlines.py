"""Headline formatting for the newsletter: short teasers and anchor ids."""

from sentinel_fixture_textutil import slugify, truncate

TEASER_WIDTH = 24


def teaser(headline):
    """The headline cut to TEASER_WIDTH characters, ending in '...' when cut."""
    return truncate(headline, TEASER_WIDTH)


def anchor(headline):
    """An HTML anchor id for the headline, words joined by underscores."""
    return slugify(headline, sep="_")
