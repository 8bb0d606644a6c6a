import subprocess
from subprocess import Popen as spawn

# nofix: python.subprocess-shell-true-literal (the pipe needs a shell)
# ruleid: python.subprocess-shell-true-literal
subprocess.run("ls -l /var/log | wc -l", shell=True, check=True)
# ruleid: python.subprocess-shell-true-literal
proc = spawn("/usr/bin/uptime", shell=True, stdout=subprocess.PIPE)
# ok: python.subprocess-shell-true-literal
subprocess.run(["ls", "-l", "/var/log"], check=True)
# ok: python.subprocess-shell-true-literal
subprocess.run("ls -l /var/log", shell=False)
# ruleid: python.subprocess-shell-true-literal
subprocess.check_call('make -C build "install prefix"', shell=True)
