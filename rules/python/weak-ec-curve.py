from cryptography.hazmat.primitives.asymmetric import ec


def device_key():
    # ruleid: python.weak-ec-curve
    return ec.generate_private_key(ec.SECP192R1())


def legacy_key():
    # ruleid: python.weak-ec-curve
    return ec.generate_private_key(curve=ec.SECT163K1())


def server_key():
    # ok: python.weak-ec-curve
    return ec.generate_private_key(ec.SECP384R1())


def signing_key():
    # ok: python.weak-ec-curve
    return ec.generate_private_key(curve=ec.SECP256R1())
