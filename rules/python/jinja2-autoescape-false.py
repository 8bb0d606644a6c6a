import jinja2
from jinja2 import Environment, FileSystemLoader, select_autoescape

# ruleid: python.jinja2-autoescape-false
env = Environment(loader=FileSystemLoader("templates"), autoescape=False)
# ruleid: python.jinja2-autoescape-false
raw_env = jinja2.Environment(autoescape=False)
# ruleid: python.jinja2-autoescape-false
cfg_env = jinja2.Environment(autoescape=settings.AUTOESCAPE)
# ok: python.jinja2-autoescape-false
safe_env = Environment(loader=FileSystemLoader("templates"), autoescape=select_autoescape(["html", "xml"]))
# ok: python.jinja2-autoescape-false
strict_env = jinja2.Environment(autoescape=True)
