def setup(ns):
    # ruleid: python.exec-literal
    exec("import os", ns)
    # ruleid: python.exec-literal
    exec("counter = 0")
    # ok: python.exec-literal
    exec(ns["body"])
    # ok: python.exec-literal
    executor.submit("job")
