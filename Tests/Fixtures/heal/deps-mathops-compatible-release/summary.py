"""Summaries of sensor readings given as text lines."""

from sentinel_fixture_mathops import clamp, mean, parse_number


def readings(lines):
    """Numbers parsed from non-blank lines."""
    return [parse_number(line) for line in lines if line.strip()]


def summarize(lines, low=-40, high=85):
    """(count, mean) of the readings, each clamped to the sensor range [low, high]."""
    values = [clamp(value, low, high) for value in readings(lines)]
    if not values:
        return (0, None)
    return (len(values), mean(values))
