"""Imports checked by python.import-pickle."""
# ruleid: python.import-pickle
import pickle
# ruleid: python.import-pickle
from dill import loads as dill_loads
# ruleid: python.import-pickle
import shelve as store
# ok: python.import-pickle
import json
# ok: python.import-pickle
from msgpack import unpackb
