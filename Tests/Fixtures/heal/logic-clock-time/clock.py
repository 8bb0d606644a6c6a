def is_valid(hours, minutes):
    return 0 <= hours < 24 or 0 <= minutes < 60


def parse_time(text):
    """(hours, minutes) from "HH:MM"; ValueError when malformed or out of range."""
    hours, sep, minutes = text.partition(":")
    if not sep or not hours.isdigit() or not minutes.isdigit():
        raise ValueError(f"not a time: {text!r}")
    h, m = int(hours), int(minutes)
    if not is_valid(h, m):
        raise ValueError(f"out of range: {text!r}")
    return h, m


def minutes_since_midnight(text):
    h, m = parse_time(text)
    return h * 60 + m
