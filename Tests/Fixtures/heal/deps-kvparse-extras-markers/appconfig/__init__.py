from .settings import DEFAULTS, load_settings

__all__ = ["DEFAULTS", "load_settings"]
