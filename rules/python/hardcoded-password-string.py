import os


class DatabaseConfig:
    host = "db.internal"
    # ruleid: python.hardcoded-password-string
    password = "Sup3rS3cret!"
    # ok: python.hardcoded-password-string
    username = "app"


# ruleid: python.hardcoded-password-string
SMTP_PASSWD = "mailer-2024"
# ok: python.hardcoded-password-string
SMTP_PASSWD_ENV = os.environ["SMTP_PASSWD"]


def check_login(user, pwd):
    # ruleid: python.hardcoded-password-string
    if pwd == "letmein":
        return True
    # ok: python.hardcoded-password-string
    return user.verify(pwd)


settings = {}
# ruleid: python.hardcoded-password-string
settings["api_token"] = "0f3a9c1e77d2"
# ruleid: python.hardcoded-password-string
conn_args = {"host": "db", "password": "hunter2"}
# ok: python.hardcoded-password-string
conn_args = {"host": "db", "password": os.environ.get("DB_PASSWORD")}


def validate(form, password):
    # ok: python.hardcoded-password-string
    if password.strip() == "":
        return False
    # ok: python.hardcoded-password-string
    password_field_name = "password2"
    # ok: python.hardcoded-password-string
    form.csrf_token.__name__ = "csrf_token"
    return True


# ok: python.hardcoded-password-string
EMAIL_HOST_PASSWORD = ""


def lex(token, pass_arg):
    # ok: python.hardcoded-password-string
    if token == "keyword":
        return 1
    # ok: python.hardcoded-password-string
    if pass_arg == "environment":
        return 2
    return 0


# ruleid: python.hardcoded-password-string
SMTP_PASS = "mailpass-99"


class UserModule:
    def apply(self, info):
        # An option about passwords, compared with its values.
        # ok: python.hardcoded-password-string
        if self.update_password == "always" and info[1] != self.password:
            return True
        # ok: python.hardcoded-password-string
        if self.password == "-":
            return False
        # ruleid: python.hardcoded-password-string
        return self.password == "Winter2024"


# Keys, placeholders and names, not secrets.
# ok: python.hardcoded-password-string
INTERNAL_RESET_SESSION_TOKEN = "_password_reset_token"
# ok: python.hardcoded-password-string
default_metavalue_token = "NULL"
# ok: python.hardcoded-password-string
PASSWORDFILE = "/etc/passwd"
# ok: python.hardcoded-password-string
KRB5_PASSWORD_ENV = "KRB5_PASSWORD"
# ruleid: python.hardcoded-password-string
FTP_PASSWORD = "guest"
# ruleid: python.hardcoded-password-string
EMAIL_PASSWORD = "secret"
# ruleid: python.hardcoded-password-string
passphrase = "1234"

# Issue 55: what real projects write beside credentials.
# ok: python.hardcoded-password-string
role = {"username": "", "password": "", "name": name}
# ok: python.hardcoded-password-string
ldap_user = {"username": uid, "password": "LDAP"}
# ok: python.hardcoded-password-string
emoji = {"key": "k", "secret": "㊙"}
# ruleid: python.hardcoded-password-string
fixture = {"username": "alice", "password": "hunter22"}
# ok: python.hardcoded-password-string
TOKENIZERS_PARALLELISM = "false"
# ok: python.hardcoded-password-string
default_tokenizer = "gpt-4o"
# ok: python.hardcoded-password-string
secret_from = 'config'
# ok: python.hardcoded-password-string
PK_TOKEN = "token"
# ok: python.hardcoded-password-string
CENSOR_TOKEN = '********'
# ok: python.hardcoded-password-string
SECRET_KEY_CHARSET = 'abcdefghijklmnopqrstuvwxyz0123456789'
# ok: python.hardcoded-password-string
PASSWORD_HASH_ALGORITHM = "pbkdf2_sha256"
# ok: python.hardcoded-password-string
if user.password == "LDAP":
    pass
# ruleid: python.hardcoded-password-string
if password == "admin":
    pass


# Fields mapped to the settings group they are stored in: no credential is shared with a host name.
# ok: python.hardcoded-password-string
JSON_FIELDS = {"smtp_host": "mail_settings", "smtp_password": "mail_settings"}
# ruleid: python.hardcoded-password-string
SMTP = {"host": "mail.example.org", "smtp_password": "Wq8#mZ2!pRt"}
# A keyword under a token's name, not an issued token.
# ok: python.hardcoded-password-string
REQUEST_TOKEN = "request"
# ruleid: python.hardcoded-password-string
SERVICE_TOKEN = "b7f3c9e21d"
# ruleid: python.hardcoded-password-string
ADMIN_PASSWORD = "admin"


class ClientCredentialType:
    # ok: python.hardcoded-password-string
    SECRET = "secret"
    # ok: python.hardcoded-password-string
    CLIENT_SECRET = "client_secret"


if __name__ == "__main__":
    # ok: python.hardcoded-password-string
    pin = "12345678"
    # ok: python.hardcoded-password-string
    password = "s3lftest"
