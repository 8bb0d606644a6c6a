DEFAULT_PORT = 80


def listen_port(config):
    """The port from config["server"]["port"] (DEFAULT_PORT when only the port is missing).

    Returns None when the configuration has no "server" section at all.
    """
    section = config.get("server")
    return int(section.get("port", DEFAULT_PORT))


def listen_host(config):
    return config.get("server", {}).get("host", "localhost")
