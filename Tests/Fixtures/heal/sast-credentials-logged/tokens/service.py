import logging
import secrets

log = logging.getLogger(__name__)


def issue(user):
    """A new access token for ``user``; ValueError without one."""
    if not user:
        raise ValueError("user required")
    access_token = secrets.token_urlsafe(16)
    log.debug("issued access token %s for %s", access_token, user)
    return {"token": access_token, "user": user}
