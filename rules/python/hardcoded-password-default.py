# ruleid: python.hardcoded-password-default
def connect(host, user="admin", password="admin123"):
    return open_connection(host, user, password)


class Client:
    # ruleid: python.hardcoded-password-default
    def __init__(self, url, token="dev-token-0000"):
        self.url = url
        self.token = token


# ok: python.hardcoded-password-default
def login(user, password):
    return authenticate(user, password)


# ok: python.hardcoded-password-default
def login_with_prompt(user, password=None, retries=3):
    return authenticate(user, password or prompt())


# ok: python.hardcoded-password-default
def connect_anonymous(host, password=""):
    return open_connection(host, "anonymous", password)


# ok: python.hardcoded-password-default
def prompt(text, token="TOKEN"):
    return input(text)
