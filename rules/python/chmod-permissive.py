import os
import stat

# ruleid: python.chmod-permissive
os.chmod("/opt/tools/deploy.sh", 0o770)
# ruleid: python.chmod-permissive
os.chmod("/srv/app/shared.db", 0o664)
# ruleid: python.chmod-permissive
os.chmod("/opt/tools/backup.sh", stat.S_IRWXU | stat.S_IXGRP)
# ok: python.chmod-permissive
os.chmod("/opt/tools/deploy.sh", 0o700)
# ok: python.chmod-permissive
os.chmod("/opt/tools/notes.txt", 0o640)
# ok: python.chmod-permissive
os.chmod("/opt/tools/deploy.sh", os.stat("/opt/tools/deploy.sh").st_mode & 0o7755)
