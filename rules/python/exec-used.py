import builtins


def apply_plugin(source_code, namespace):
    # ruleid: python.exec-used
    exec(source_code, namespace)


def run_snippet(request):
    snippet = request.form["code"]
    # ruleid: python.exec-used
    exec(compile(snippet, "<user>", "exec"))


def init_defaults(namespace):
    # ok: python.exec-used
    exec("x = 1", namespace)
    # ok: python.exec-used
    namespace["execute"] = lambda: None
