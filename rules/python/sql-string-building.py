import sqlite3


def find_user(conn, username):
    cur = conn.cursor()
    # ruleid: python.sql-string-building
    cur.execute("SELECT id, email FROM users WHERE name = '%s'" % username)
    return cur.fetchone()


def delete_order(conn, order_id):
    # ruleid: python.sql-string-building
    query = "DELETE FROM orders WHERE id = " + order_id
    conn.execute(query)


def rename(conn, table, new_name, row_id):
    # ruleid: python.sql-string-building
    sql = "UPDATE {} SET name = '{}' WHERE id = {}".format(table, new_name, row_id)
    conn.execute(sql)


def find_user_safely(conn, username):
    cur = conn.cursor()
    # ok: python.sql-string-building
    cur.execute("SELECT id, email FROM users WHERE name = ?", (username,))
    return cur.fetchone()


def greeting(name):
    # ok: python.sql-string-building
    return "Please select a plan from the list, %s" % name


# ok: python.sql-string-building
BASE_QUERY = "SELECT id, name FROM products " + "WHERE deleted = 0"


def login(c, username, password):
    # ruleid: python.sql-string-building
    c.execute("SELECT * FROM users WHERE name = '{}' AND pw = '{}'".format(username, password))


def show(handler, cursor):
    item = handler.params["id"][0]
    # ruleid: python.sql-string-building
    cursor.execute("SELECT * FROM items WHERE id=" + item)


def quoted_table(cursor, connection, table):
    # ruleid: python.sql-string-building
    cursor.execute("SELECT COUNT(*) FROM %s" % connection.ops.quote_name(table))


def insert_rows(cursor, rows):
    values = [value for row in rows for value in row]
    # Only placeholders are written into the statement; the values are bound.
    # ok: python.sql-string-building
    cursor.execute("INSERT INTO items(id, name) VALUES {}".format(", ".join(["(?, ?)"] * len(rows))), values)
    # ok: python.sql-string-building
    cursor.execute("SELECT * FROM items WHERE id IN (%s)" % ",".join("?" * len(rows)), values)
    # ruleid: python.sql-string-building
    cursor.execute("SELECT * FROM items WHERE id IN ({})".format(", ".join(str(row) for row in rows)))
