import html


def render(query):
    return "<p>No results for " + query + "</p>"
