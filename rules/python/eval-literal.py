import os

# ruleid: python.eval-literal
cwd = eval("os.getcwd()")
# ruleid: python.eval-literal
total = eval("1 + 2", {})
# ok: python.eval-literal
value = eval(user_expression)
# ok: python.eval-literal
model.eval()
