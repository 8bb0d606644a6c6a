from ruamel.yaml import YAML
import ruamel.yaml


def loader():
    # ruleid: python.ruamel-unsafe-yaml
    return YAML(typ="unsafe")


def legacy_loader():
    # ruleid: python.ruamel-unsafe-yaml
    return ruamel.yaml.YAML(typ="unsafe", pure=True)


def safe_loader():
    # ok: python.ruamel-unsafe-yaml
    return YAML(typ="safe")


def round_trip():
    # ok: python.ruamel-unsafe-yaml
    return YAML()
