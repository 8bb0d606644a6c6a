import yaml
from yaml import load, Loader, SafeLoader


def read_config(path):
    with open(path) as f:
        # ruleid: python.yaml-load
        return yaml.load(f)


def read_manifest(text):
    # ruleid: python.yaml-load
    return load(text, Loader=Loader)


def read_all(text):
    # ruleid: python.yaml-load
    return list(yaml.unsafe_load_all(text))


def read_config_safely(path):
    with open(path) as f:
        # ok: python.yaml-load
        return yaml.load(f, Loader=yaml.SafeLoader)


def read_manifest_safely(text):
    # ok: python.yaml-load
    return yaml.load(text, SafeLoader)


def read_plain(text):
    # ok: python.yaml-load
    return yaml.safe_load(text)


def read_stream(fh):
    # ruleid: python.yaml-load
    return yaml.full_load(stream=fh)


def read_with(options):
    # nofix: python.yaml-load
    # ruleid: python.yaml-load
    return yaml.load(**options)


class ConfigLoader(yaml.SafeLoader):
    pass


def read_own(text):
    # ok: python.yaml-load
    return yaml.load(text, Loader=ConfigLoader)


def read_c(text):
    # ruleid: python.yaml-load
    return yaml.load(text, Loader=yaml.CUnsafeLoader)
