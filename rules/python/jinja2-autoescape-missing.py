import jinja2
from jinja2 import Environment, PackageLoader, select_autoescape

# ruleid: python.jinja2-autoescape-missing
env = Environment(loader=PackageLoader("shop", "templates"))
# ruleid: python.jinja2-autoescape-missing
greeting = jinja2.Template("<p>Hello {{ name }}</p>")
# ok: python.jinja2-autoescape-missing
env = Environment(loader=PackageLoader("shop", "templates"), autoescape=select_autoescape())
# ok: python.jinja2-autoescape-missing
text_env = jinja2.Environment(autoescape=False)


def options_passed_on(loader, jinja_options):
    # ok: python.jinja2-autoescape-missing
    return jinja2.Environment(loader=loader, **jinja_options)
