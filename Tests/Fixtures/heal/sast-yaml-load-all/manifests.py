"""Read multi-document Kubernetes-style manifests."""

import yaml


def read_manifests(text):
    """The non-empty documents of a multi-document YAML stream."""
    return [doc for doc in yaml.load_all(text, Loader=yaml.FullLoader) if doc]


def kinds(text):
    return sorted({doc.get("kind", "?") for doc in read_manifests(text)})
