import pytest

from listing import count_entries, list_entries


def test_empty_directory(tmp_path):
    assert list_entries(tmp_path) == []


def test_files_and_hidden_files(tmp_path):
    for name in ("b.txt", "a.txt", ".hidden"):
        (tmp_path / name).write_text("x")
    assert list_entries(tmp_path) == [".hidden", "a.txt", "b.txt"]


def test_subdirectories_counted(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "file").write_text("")
    assert count_entries(tmp_path) == 2


def test_missing_directory(tmp_path):
    with pytest.raises(OSError):
        list_entries(tmp_path / "absent")
