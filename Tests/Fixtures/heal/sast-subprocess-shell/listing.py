"""Directory listings through the system ls."""

import subprocess

LIST_COMMAND = "ls -1 -a"


def list_entries(directory):
    """Names in ``directory``, hidden ones included, sorted; '.' and '..' left out."""
    result = subprocess.run(
        LIST_COMMAND, shell=True, cwd=directory, capture_output=True, text=True, check=True
    )
    return sorted(name for name in result.stdout.splitlines() if name not in (".", ".."))


def count_entries(directory):
    return len(list_entries(directory))
