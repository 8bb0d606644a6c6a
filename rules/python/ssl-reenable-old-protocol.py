import ssl

ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
# ruleid: python.ssl-reenable-old-protocol
ctx.options &= ~ssl.OP_NO_SSLv3
# ruleid: python.ssl-reenable-old-protocol
ctx.options = ctx.options & ~ssl.OP_NO_TLSv1
# ok: python.ssl-reenable-old-protocol
ctx.options |= ssl.OP_NO_SSLv3
# ok: python.ssl-reenable-old-protocol
ctx.options &= ~ssl.OP_NO_COMPRESSION
