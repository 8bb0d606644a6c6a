from mako.template import Template
from mako.lookup import TemplateLookup
import mako.template

# ruleid: python.mako-templates
page = Template("<h1>${title}</h1>")
# ruleid: python.mako-templates
lookup = TemplateLookup(directories=["templates"])
# ruleid: python.mako-templates
footer = mako.template.Template("<footer>${text}</footer>")
# ok: python.mako-templates
safe_page = Template("<h1>${title}</h1>", default_filters=["h"])
# ok: python.mako-templates
safe_lookup = TemplateLookup(directories=["templates"], default_filters=["h", "unicode"])
