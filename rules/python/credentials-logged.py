import logging

L = logging.getLogger(__name__)
logger = logging.getLogger("app")


def login(request, username, password):
    # ruleid: python.credentials-logged
    L.info(f"POST request with username {username} and password {password}")
    # ruleid: python.credentials-logged
    logger.debug("login %s / %s", username, password)
    # ruleid: python.credentials-logged
    logging.info("token: " + request.form["access_token"])
    # ok: python.credentials-logged
    logger.info("login attempt for %s", username)
    # ok: python.credentials-logged
    logger.info("Invalid password for %s", username)
    # ok: python.credentials-logged
    logger.debug("password has %d characters", len(password))
    # ok: python.credentials-logged
    logger.debug("password set: %s", password is not None)
    # ok: python.credentials-logged
    logger.debug("key %s", mask_secret(password))


class Client:
    def __init__(self, api_key):
        self.api_key = api_key
        self.log = logging.getLogger("client")

    def call(self):
        # ruleid: python.credentials-logged
        self.log.warning("calling with key %s", self.api_key)
        # ok: python.credentials-logged
        self.log.warning("unexpected token %r in input", self.token)
        # ok: python.credentials-logged
        print("your password is", self.api_key)


def project_logger(request, Log, AuditLogger, Catalog):
    audit = Log(request)
    # ruleid: python.credentials-logged
    audit.info(f"login by {request.POST['username']} with password {request.POST['password']}")
    trail = AuditLogger()
    password = request.POST["password"]
    # ruleid: python.credentials-logged
    trail.warning("password was %s", password)
    books = Catalog()
    # ok: python.credentials-logged
    books.info(password)
