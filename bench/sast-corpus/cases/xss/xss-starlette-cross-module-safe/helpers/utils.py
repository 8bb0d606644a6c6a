import html


def clean(value):
    return html.escape(value.strip())
