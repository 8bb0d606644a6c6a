import os

import pytest

from atomic import read_json, write_json


def test_round_trip(tmp_path):
    target = tmp_path / "state.json"
    write_json(str(target), {"b": 2, "a": [1, 2]})
    assert read_json(str(target)) == {"a": [1, 2], "b": 2}


def test_overwrite(tmp_path):
    target = tmp_path / "state.json"
    write_json(str(target), {"v": 1})
    write_json(str(target), {"v": 2})
    assert read_json(str(target)) == {"v": 2}


def test_no_temporary_files_left(tmp_path):
    write_json(str(tmp_path / "a.json"), [1])
    assert os.listdir(tmp_path) == ["a.json"]


def test_failed_write_leaves_no_file(tmp_path):
    with pytest.raises(TypeError):
        write_json(str(tmp_path / "bad.json"), {"x": object()})
    assert os.listdir(tmp_path) == []
