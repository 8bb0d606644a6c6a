#pragma once
#include <sqlite3.h>

/// `SQLITE_TRANSIENT` (SQLite copies a bound buffer before the call returns) is a macro casting -1
/// to a function pointer, which does not import into Swift: this hands it over as a value.
static inline sqlite3_destructor_type sentinel_sqlite_transient(void) { return SQLITE_TRANSIENT; }
