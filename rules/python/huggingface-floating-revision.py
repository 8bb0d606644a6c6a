from transformers import AutoModel
from huggingface_hub import snapshot_download

# ruleid: python.huggingface-floating-revision
model = AutoModel.from_pretrained("acme/sentiment-large", revision="main")
# ruleid: python.huggingface-floating-revision
path = snapshot_download(repo_id="acme/sentiment-large", revision="v1.2.0")
# ok: python.huggingface-floating-revision
model = AutoModel.from_pretrained("acme/sentiment-large", revision="3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a")
# ok: python.huggingface-floating-revision
model = AutoModel.from_pretrained("acme/sentiment-large", revision=PINNED_SHA)
