"""Imports checked by python.import-xmlrpc."""
# ruleid: python.import-xmlrpc
import xmlrpc.client
# ruleid: python.import-xmlrpc
from xmlrpc.server import SimpleXMLRPCServer
# ok: python.import-xmlrpc
import jsonrpclib
# ok: python.import-xmlrpc
from defusedxml import xmlrpc
