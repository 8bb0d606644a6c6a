from sentinel_fixture_kvparse import parse

DEFAULTS = {"host": "127.0.0.1", "port": "8080", "workers": "2"}


def load_settings(text):
    """Settings from ``key = value`` text over DEFAULTS; port and workers become ints."""
    settings = dict(DEFAULTS)
    settings.update(parse(text, strict=True))
    settings["port"] = int(settings["port"])
    settings["workers"] = int(settings["workers"])
    return settings
