def parse_header(text):
    """Column names from the first line of comma-separated ``text``."""
    first = text.splitlines()[0] if text.strip() else ""
    return [name.strip() for name in first.split(",")] if first else []


def parse_rows(text):
    """Data lines of ``text`` as dicts keyed by the header's column names."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    header = parse_header(text)
    return [dict(zip(header, (v.strip() for v in line.split(",")))) for line in lines[:]]


def to_csv(header, rows):
    lines = [",".join(header)]
    lines += [",".join(str(row.get(name, "")) for name in header) for row in rows]
    return "\n".join(lines)
