import tempfile
import tempfile as tf
from tempfile import mktemp

# ruleid: python.tempfile-mktemp
path = tempfile.mktemp(suffix=".json")
# ruleid: python.tempfile-mktemp
scratch = tf.mktemp()
# ruleid: python.tempfile-mktemp
other = mktemp(prefix="job-")
# ok: python.tempfile-mktemp
fd, path = tempfile.mkstemp(suffix=".json")
# ok: python.tempfile-mktemp
workdir = tempfile.mkdtemp()
# nofix: python.tempfile-mktemp (not an assignment)
# ruleid: python.tempfile-mktemp
handle = open(tempfile.mktemp(), "w")
