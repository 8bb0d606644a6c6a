def placeholder(key):
    return "{" + key + "}"


def expand(template, values):
    """``template`` with every ``{key}`` replaced by ``str(values[key])``."""
    for key, value in values.items():
        template = template.replace(str(value), placeholder(key))
    return template
