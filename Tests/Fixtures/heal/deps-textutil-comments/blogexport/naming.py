from sentinel_fixture_mathops import clamp
from sentinel_fixture_textutil import slugify

WORDS_PER_MINUTE = 200


def post_filename(title, date):
    """File name of a post: ISO date, then the slug of its title."""
    slug = slugify(title) or "untitled"
    return f"{date.isoformat()}-{slug}.html"


def reading_minutes(text):
    """Estimated reading time in whole minutes, between 1 and 60."""
    words = len(text.split())
    return clamp(-(-words // WORDS_PER_MINUTE), 1, 60)
