import tarfile
import zipfile


def unpack(archive_path, dest):
    with tarfile.open(archive_path) as tar:
        # ruleid: python.tarfile-extractall
        tar.extractall(dest)


def unpack_selected(archive_path, dest, wanted):
    tar = tarfile.open(archive_path, "r:gz")
    # ruleid: python.tarfile-extractall
    tar.extractall(path=dest, members=[m for m in tar.getmembers() if m.name in wanted])
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
    with tarfile.open(archive_path) as tar:
        # ruleid: python.tarfile-extractall
        tar.extractall(dest, filter="fully_trusted")


def unzip(archive_path, dest):
    with zipfile.ZipFile(archive_path) as tar:
        # ok: python.tarfile-extractall
        tar.extractall(dest)
