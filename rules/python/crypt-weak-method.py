import crypt
from crypt import mksalt, METHOD_MD5

# ruleid: python.crypt-weak-method
hashed = crypt.crypt(password, salt=crypt.METHOD_CRYPT)
# ruleid: python.crypt-weak-method
salt = mksalt(METHOD_MD5)
# ok: python.crypt-weak-method
hashed = crypt.crypt(password, crypt.mksalt(crypt.METHOD_SHA512))
# ok: python.crypt-weak-method
salt = crypt.mksalt(crypt.METHOD_SHA512)
