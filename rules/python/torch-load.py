import torch
from torch import load as torch_load


def restore(model, path):
    # ruleid: python.torch-load
    model.load_state_dict(torch.load(path))


def restore_cpu(model, path):
    # ruleid: python.torch-load
    state = torch_load(path, map_location="cpu", weights_only=False)
    model.load_state_dict(state)


def restore_safely(model, path):
    # ok: python.torch-load
    model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))


def save(model, path):
    # ok: python.torch-load
    torch.save(model.state_dict(), path)
