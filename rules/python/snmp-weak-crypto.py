from pysnmp.hlapi import UsmUserData
import pysnmp.hlapi as snmp

# ruleid: python.snmp-weak-crypto
no_auth = UsmUserData("monitor")
# ruleid: python.snmp-weak-crypto
auth_only = snmp.UsmUserData("monitor", "authkey12345")
# ok: python.snmp-weak-crypto
auth_priv = UsmUserData("monitor", "authkey12345", "privkey12345")
# ok: python.snmp-weak-crypto
auth_priv_kw = snmp.UsmUserData("monitor", authKey="authkey12345", privKey="privkey12345")
