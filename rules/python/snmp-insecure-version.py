from pysnmp.hlapi import CommunityData, UsmUserData, usmHMACSHAAuthProtocol
import pysnmp.hlapi as snmp

# ruleid: python.snmp-insecure-version
v1_auth = CommunityData("public", mpModel=0)
# ruleid: python.snmp-insecure-version
v2_auth = snmp.CommunityData("private", mpModel=1)
# ok: python.snmp-insecure-version
v3_auth = UsmUserData("monitor", "authkey12345", "privkey12345", authProtocol=usmHMACSHAAuthProtocol)
# ok: python.snmp-insecure-version
other = snmp.ContextData()
