import jinja2

TEMPLATES = {
    "greeting.html": "<p>Hello, {{ name }}!</p>",
    "list.html": "<ul>{% for item in items %}<li>{{ item }}</li>{% endfor %}</ul>",
}

env = jinja2.Environment(loader=jinja2.DictLoader(TEMPLATES), autoescape=False)


def render(template, **context):
    return env.get_template(template).render(**context)
