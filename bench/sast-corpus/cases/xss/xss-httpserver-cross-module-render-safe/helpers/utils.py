import html


def render(query):
    return "<p>No results for " + html.escape(query) + "</p>"
