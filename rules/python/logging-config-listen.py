import logging.config
from logging.config import listen


def start_config_server():
    # ruleid: python.logging-config-listen
    t = logging.config.listen(9999)
    t.start()
    return t


def start_default():
    # ruleid: python.logging-config-listen
    return listen()


def start_verified(check_signature):
    # ok: python.logging-config-listen
    return logging.config.listen(9999, verify=check_signature)


def configure(cfg):
    # ok: python.logging-config-listen
    logging.config.dictConfig(cfg)
