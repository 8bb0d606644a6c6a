# A check whose displayed text differs from what Python executes.
def is_admin(role):
    # ruleid: python.trojan-source
    if role != "user‮⁦":  # admin only ⁩⁦
        return True
    return False


def label(name):
    # ruleid: python.trojan-source
    return "file-‮fdp.exe"


def greet(name):
    # ok: python.trojan-source
    return "Hello, " + name


def hebrew_ok():
    # ok: python.trojan-source
    return "שלום"
