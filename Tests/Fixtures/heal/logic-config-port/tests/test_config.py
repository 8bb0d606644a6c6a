from server.config import listen_host, listen_port


def test_port_from_config():
    assert listen_port({"server": {"port": "8080"}}) == 8080


def test_default_port():
    assert listen_port({"server": {"host": "localhost"}}) == 80


def test_host():
    assert listen_host({"server": {"host": "localhost"}}) == "localhost"
    assert listen_host({}) == "localhost"


def test_missing_section():
    assert listen_port({}) is None
    assert listen_port({"client": {"port": 1}}) is None
