import yaml

DEFAULTS = {"name": "service", "debug": False, "workers": 4, "hosts": []}


def load_settings(text):
    """Settings from a YAML document over DEFAULTS."""
    data = yaml.load(text, Loader=yaml.Loader) or {}
    if not isinstance(data, dict):
        raise ValueError("settings must be a mapping")
    settings = dict(DEFAULTS)
    settings.update(data)
    return settings
