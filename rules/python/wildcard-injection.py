import os
import subprocess as sp

# ruleid: python.wildcard-injection
os.system("cd /srv/uploads && tar czf /backup/uploads.tgz *")
# ruleid: python.wildcard-injection
sp.call("chown www-data:www-data /var/www/*", shell=True)
# ok: python.wildcard-injection
sp.call(["chown", "www-data:www-data", "/var/www/index.html"])
# ok: python.wildcard-injection
os.system("tar czf /backup/uploads.tgz /srv/uploads")
