def count_rows(cur, table):
    # ruleid: python.sql-fstring
    cur.execute(f"SELECT count(*) FROM {table}")
    return cur.fetchone()[0]


def archive(cur, table, cutoff):
    # ruleid: python.sql-fstring
    query = f"DELETE FROM {table} WHERE created < '{cutoff}'"
    cur.execute(query)


def count_users(cur):
    # ok: python.sql-fstring
    cur.execute("SELECT count(*) FROM users")
    return cur.fetchone()[0]


def label(item):
    # ok: python.sql-fstring
    return f"Please select a size for {item.name}"


def log_insert(logger, path, row):
    # A message about a statement runs none.
    # ok: python.sql-fstring
    logger.info(f"Insert row into telemetry table at {path}: {row}")


def put_user(cur, user):
    # ruleid: python.sql-fstring
    query = f'''
INSERT INTO users (name, email) VALUES ("{user.name}", "{user.email}");
'''[1:-1]
    cur.execute(query)
    # ruleid: python.sql-fstring
    report = f"""
        SELECT name FROM users WHERE team = '{user.team}'
    """.strip()
    cur.execute(report)
