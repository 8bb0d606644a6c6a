import tempfile

# ruleid: python.hardcoded-tmp-directory
with open("/tmp/report.csv", "w") as out:
    out.write("id,name\n")

# ruleid: python.hardcoded-tmp-directory
LOCK_FILE = "/var/tmp/worker.lock"

# ruleid: python.hardcoded-tmp-directory
cache_dir = "/dev/shm/cache"

# ok: python.hardcoded-tmp-directory
with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as out:
    out.write("id,name\n")

# ok: python.hardcoded-tmp-directory
DATA_DIR = "/srv/data/tmp"
# ok: python.hardcoded-tmp-directory
scratch = tempfile.mkdtemp(prefix="job-", dir="/tmp")
