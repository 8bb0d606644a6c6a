def parse_all(lines):
    result = []
    for line in lines:
        # ruleid: python.try-except-continue
        try:
            result.append(int(line))
        except:
            continue
    return result


def fetch_all(urls, session):
    pages = []
    for url in urls:
        # ruleid: python.try-except-continue
        try:
            pages.append(session.get(url, timeout=5).text)
        except Exception:
            continue
    return pages


def parse_numbers(lines):
    out = []
    for line in lines:
        # ok: python.try-except-continue
        try:
            out.append(float(line))
        except ValueError:
            continue
    return out


def parse_logged(lines, log):
    out = []
    for line in lines:
        # ok: python.try-except-continue
        try:
            out.append(float(line))
        except Exception as exc:
            log.debug("skipping %r: %s", line, exc)
    return out
