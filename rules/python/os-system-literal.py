import os
from os import popen

# ruleid: python.os-system-literal
os.system("clear")
# ruleid: python.os-system-literal
load = popen("cat /proc/loadavg").read()
# ok: python.os-system-literal
os.system(user_command)
# ok: python.os-system-literal
os.getcwd()
