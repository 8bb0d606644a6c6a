import os
import psycopg2
import smtplib

# ruleid: python.hardcoded-password-funcarg
conn = psycopg2.connect(host="db", user="app", password="pg-admin-1")
# ruleid: python.hardcoded-password-funcarg
client = ApiClient(base_url="https://api.example.com", api_token="tk_live_51H8")
# ok: python.hardcoded-password-funcarg
conn = psycopg2.connect(host="db", user="app", password=os.environ["PGPASSWORD"])
# ok: python.hardcoded-password-funcarg
server = smtplib.SMTP(host="smtp.example.com", port=587)
# ok: python.hardcoded-password-funcarg
anonymous = psycopg2.connect(host="db", user="guest", password="")
# Argument names mapped to a driver's names, not credentials.
# ok: python.hardcoded-password-funcarg
translate = dict(database="db", username="user", password="passwd")
# ok: python.hardcoded-password-funcarg
options = Options(password="{password}")
# ruleid: python.hardcoded-password-funcarg
test_url = url.set(username="scott", password="tiger")
