import os
import stat
from pathlib import Path
from os import chmod as set_mode

upload_dir = "/srv/app/uploads"
# ruleid: python.chmod-world-writable
os.chmod(upload_dir, 0o777)
# ruleid: python.chmod-world-writable
set_mode("/srv/app/shared.sock", 0o666)
# ruleid: python.chmod-world-writable
os.chmod(upload_dir, stat.S_IRUSR | stat.S_IWUSR | stat.S_IWOTH)
# ruleid: python.chmod-world-writable
Path("/srv/app/cache").chmod(0o757)
# ok: python.chmod-world-writable
os.chmod(upload_dir, 0o750)
# ok: python.chmod-world-writable
os.chmod("/home/app/.ssh/id_rsa", stat.S_IRUSR | stat.S_IWUSR)
# ok: python.chmod-world-writable
os.chmod("/srv/app/run.sh", 0o755)
# ok: python.chmod-world-writable
os.chmod(upload_dir, os.stat(upload_dir).st_mode & 0o7777)
# ok: python.chmod-world-writable
os.chmod(upload_dir, os.stat(upload_dir).st_mode & ~stat.S_IWOTH)
# ruleid: python.chmod-world-writable
os.chmod(upload_dir, (os.stat(upload_dir).st_mode & 0o7777) | stat.S_IWOTH)
