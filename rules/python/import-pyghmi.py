"""Imports checked by python.import-pyghmi."""
# ruleid: python.import-pyghmi
from pyghmi.ipmi import command
# ruleid: python.import-pyghmi
import pyghmi
# ok: python.import-pyghmi
import redfish
# ok: python.import-pyghmi
from sushy import Sushy
