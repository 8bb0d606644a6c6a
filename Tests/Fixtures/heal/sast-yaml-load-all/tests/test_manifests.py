from manifests import kinds, read_manifests

STREAM = """\
kind: Deployment
metadata: {name: web}
---
kind: Service
metadata: {name: web}
---
---
kind: Deployment
metadata: {name: worker}
"""


def test_documents_are_read_in_order():
    docs = read_manifests(STREAM)
    assert [d["metadata"]["name"] for d in docs] == ["web", "web", "worker"]


def test_empty_documents_are_skipped():
    assert read_manifests("---\n---\n") == []


def test_kinds():
    assert kinds(STREAM) == ["Deployment", "Service"]


def test_single_document():
    assert read_manifests("kind: ConfigMap\n") == [{"kind": "ConfigMap"}]
