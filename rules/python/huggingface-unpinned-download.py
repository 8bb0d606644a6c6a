from datasets import load_dataset
from huggingface_hub import hf_hub_download, snapshot_download


def fetch_config():
    # ruleid: python.huggingface-unpinned-download
    return hf_hub_download(repo_id="acme/sentiment-large", filename="config.json")


def fetch_data():
    # ruleid: python.huggingface-unpinned-download
    return load_dataset("acme/reviews", split="train")


def fetch_pinned():
    # ok: python.huggingface-unpinned-download
    return snapshot_download(repo_id="acme/sentiment-large", revision="3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a")


def fetch_data_pinned(rev):
    # ok: python.huggingface-unpinned-download
    return load_dataset("acme/reviews", split="train", revision=rev)
