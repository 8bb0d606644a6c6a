import flask
from markupsafe import Markup, escape


def comment_html(comment):
    # ruleid: python.markupsafe-markup
    return Markup(f"<p>{comment.text}</p>")


def bio_html(user):
    # ruleid: python.markupsafe-markup
    return flask.Markup("<div>%s</div>" % user.bio)


def comment_html_safely(comment):
    # ok: python.markupsafe-markup
    return Markup("<p>{}</p>").format(comment.text)


def escaped(comment):
    # ok: python.markupsafe-markup
    return Markup("<br>").join(escape(line) for line in comment.lines)
