import os
import tarfile
import zipfile


def unpack(archive_path, dest):
    with tarfile.open(archive_path) as tar:
        # ruleid: python.tarfile-extractall
        tar.extractall(dest)


def unpack_selected(archive_path, dest, wanted):
    tar = tarfile.open(archive_path, "r:gz")
    # ruleid: python.tarfile-extractall
    tar.extractall(path=dest, members=[m for m in tar.getmembers() if m.isfile()])
    # ruleid: python.tarfile-extractall
    tar.extract("README", path=dest)
    tar.close()


def unpack_safely(archive_path, dest):
    with tarfile.open(archive_path) as tar:
        # ok: python.tarfile-extractall
        tar.extractall(dest, filter="data")
        # ok: python.tarfile-extractall
        tar.extract("README", path=dest, filter="data")


def unpack_trusting(archive_path, dest):
    with tarfile.TarFile.open(archive_path) as tar:
        # ruleid: python.tarfile-extractall
        tar.extractall(dest, filter="fully_trusted")


def unpack_typed(tar: tarfile.TarFile, dest):
    # ruleid: python.tarfile-extractall
    tar.extractall(dest)


def unzip(archive_path, dest):
    with zipfile.ZipFile(archive_path) as tar:
        # ok: python.tarfile-extractall
        tar.extractall(dest)


def unpack_compatible(archive_path, dest):
    with tarfile.open(archive_path) as tar:
        if hasattr(tarfile, "data_filter"):
            # ok: python.tarfile-extractall
            tar.extractall(dest, filter="data")
        else:
            # The fallback for Pythons without extraction filters.
            # ok: python.tarfile-extractall
            tar.extractall(dest)


def is_within_directory(directory, target):
    return os.path.commonpath([os.path.abspath(directory), os.path.abspath(target)]) == os.path.abspath(directory)


def unpack_checked(archive_path, dest):
    tar = tarfile.open(archive_path)
    for member in tar.getmembers():
        member_path = os.path.join(dest, member.name)
        if not is_within_directory(dest, member_path):
            raise ValueError("path traversal in tar file")
    # ok: python.tarfile-extractall
    tar.extractall(dest)


def unpack_each(archive_path, dest):
    with tarfile.open(archive_path) as tar:
        for member in tar:
            if member.name.startswith("/") or ".." in member.name:
                continue
            # ok: python.tarfile-extractall
            tar.extract(member, dest)


def unpack_listed(archive_path, dest):
    with tarfile.open(archive_path) as tar:
        for member in tar.getmembers():
            print(member.size)
        # A loop that checks nothing.
        # ruleid: python.tarfile-extractall
        tar.extractall(dest)


def safe_members(tar):
    return [m for m in tar.getmembers() if not m.name.startswith(("/", ".."))]


def unpack_filtered(archive_path, dest):
    with tarfile.open(archive_path) as tar:
        # ok: python.tarfile-extractall
        tar.extractall(dest, members=safe_members(tar))


class Archive:
    """A project's own archive class: its extract() is not tarfile's."""

    def __init__(self, extractor):
        self._archive = extractor

    def extract(self, to_path):
        # ok: python.tarfile-extractall
        self._archive.extract(to_path)
