import os
import stat

# ruleid: python.chmod-group-executable
os.chmod("/opt/tools/deploy.sh", 0o770)
# ruleid: python.chmod-group-executable
os.chmod("/opt/tools/backup.sh", stat.S_IRWXU | stat.S_IXGRP)
# ok: python.chmod-group-executable
os.chmod("/opt/tools/deploy.sh", 0o700)
# ok: python.chmod-group-executable
os.chmod("/opt/tools/notes.txt", 0o640)
