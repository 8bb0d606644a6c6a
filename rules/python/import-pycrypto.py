"""Imports checked by python.import-pycrypto."""
# ruleid: python.import-pycrypto
from Crypto.Cipher import AES
# ruleid: python.import-pycrypto
import Crypto.Random
# ok: python.import-pycrypto
from Cryptodome.Cipher import AES
# ok: python.import-pycrypto
from cryptography.fernet import Fernet
