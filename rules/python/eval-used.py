import ast


def calculate(expression):
    # ruleid: python.eval-used
    return eval(expression)


def load_settings(text):
    # ruleid: python.eval-used
    settings = eval("{" + text + "}", {"__builtins__": {}})
    return settings


def parse_literal(text):
    # ok: python.eval-used
    return ast.literal_eval(text)


class Model:
    def evaluate(self, batch):
        # ok: python.eval-used
        return self.eval(batch)
