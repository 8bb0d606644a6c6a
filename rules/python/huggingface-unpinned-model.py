from transformers import AutoModel, AutoTokenizer


def load():
    # ruleid: python.huggingface-unpinned-model
    model = AutoModel.from_pretrained("acme/sentiment-large")
    # ruleid: python.huggingface-unpinned-model
    tokenizer = AutoTokenizer.from_pretrained("acme/sentiment-large", use_fast=True)
    return model, tokenizer


def load_pinned():
    # ok: python.huggingface-unpinned-model
    return AutoModel.from_pretrained("acme/sentiment-large", revision="3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a")


def load_local():
    # ok: python.huggingface-unpinned-model
    return AutoModel.from_pretrained("./checkpoints/sentiment")
