import posixpath

from sentinel_fixture_pathsafe import safe_join

UPLOAD_ROOT = "/srv/uploads"


def storage_path(user, filename):
    """Where ``filename`` uploaded by ``user`` is stored; ValueError when it escapes the root."""
    return safe_join(UPLOAD_ROOT, user, filename)


def extension(filename):
    """Lower-case extension without the dot, or '' when there is none."""
    return posixpath.splitext(filename)[1].lstrip(".").lower()
