import logging
import sqlite3
import sys

from sqlalchemy import create_engine
from sqlalchemy.ext.asyncio import create_async_engine

log = logging.getLogger(__name__)


def login(username, password):
    conn = sqlite3.connect("users.db")
    # ruleid: python.sql-statements-logged
    conn.set_trace_callback(print)
    return conn.execute("SELECT * FROM users WHERE name = ? AND password = ?", (username, password)).fetchone()


def traced():
    conn = sqlite3.connect("app.db")
    # ruleid: python.sql-statements-logged
    conn.set_trace_callback(log.debug)
    # ruleid: python.sql-statements-logged
    conn.set_trace_callback(sys.stderr.write)
    # ok: python.sql-statements-logged
    conn.set_trace_callback(None)
    # ok: python.sql-statements-logged
    conn.set_trace_callback(count_statements)


# ruleid: python.sql-statements-logged
engine = create_engine("postgresql://app@db/app", echo=True)
# ruleid: python.sql-statements-logged
async_engine = create_async_engine("postgresql+asyncpg://app@db/app", echo=True)
# ok: python.sql-statements-logged
quiet = create_engine("postgresql://app@db/app", echo=False)
# ok: python.sql-statements-logged
default = create_engine("postgresql://app@db/app")

# ok: python.sql-statements-logged
hidden = create_engine(
    "postgresql://app@db/app",
    echo=True,
    hide_parameters=True,
)
