import sqlite3

from sqlalchemy import create_engine

# ruleid: python.sql-statement-logging
engine = create_engine("sqlite:///app.db", echo=True)
# ok: python.sql-statement-logging
engine = create_engine("sqlite:///app.db", echo=True, hide_parameters=True)
# ok: python.sql-statement-logging
engine = create_engine("sqlite:///app.db")


def connect():
    conn = sqlite3.connect("users.db")
    # ruleid: python.sql-statement-logging
    conn.set_trace_callback(print)
    # ok: python.sql-statement-logging
    conn.set_trace_callback(None)
    return conn


if __name__ == "__main__":
    # ok: python.sql-statement-logging
    demo = create_engine("sqlite://", echo=True)
