import pytest

from uploads.store import extension, storage_path


def test_plain_upload():
    assert storage_path("alice", "cat.png") == "/srv/uploads/alice/cat.png"


def test_nested_dots_are_normalised():
    assert storage_path("alice", "albums/../cat.png") == "/srv/uploads/alice/cat.png"


def test_escape_is_rejected():
    with pytest.raises(ValueError):
        storage_path("alice", "../../../etc/passwd")


def test_extension():
    assert extension("Photo.JPG") == "jpg"
    assert extension("README") == ""
