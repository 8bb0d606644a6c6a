#pragma once
// libpq, loaded the first time a connection string is read or a connection made (dlopen of
// libpq.so.5) rather than linked: linked, it and the libraries it needs (Kerberos, LDAP, GnuTLS)
// cost every process its start although only fleet mode and `db` commands on PostgreSQL use it
// (issue 77).
//
// Swift calls the `sentinel_PQ*` functions only; libpq-fe.h is here for its types and constants.
// A call to a libpq function itself does not link (the binary does not name libpq).
#include <postgresql/libpq-fe.h>

/// Loads libpq once; NULL when it is there, else why not (a static string, or dlerror's text).
const char *sentinel_pq_load(void);

// Each function libpq has that Swift uses: return type, name, parameters, arguments.
#define SENTINEL_PQ_FUNCTIONS(X)                                                                                 \
    X(void, PQclear, (PGresult * result), (result))                                                              \
    X(PQconninfoOption *, PQconndefaults, (void), ())                                                            \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand),        \
      (keywords, values, expand))                                                                                \
    X(void, PQconninfoFree, (PQconninfoOption * options), (options))                                             \
    X(PQconninfoOption *, PQconninfoParse, (const char *text, char **error), (text, error))                      \
    X(int, PQconsumeInput, (PGconn * connection), (connection))                                                  \
    X(char *, PQerrorMessage, (const PGconn *connection), (connection))                                          \
    X(PGresult *, PQexec, (PGconn * connection, const char *query), (connection, query))                         \
    X(PGresult *, PQexecParams,                                                                                  \
      (PGconn * connection, const char *command, int count, const Oid *types, const char *const *values,        \
       const int *lengths, const int *formats, int resultFormat),                                               \
      (connection, command, count, types, values, lengths, formats, resultFormat))                              \
    X(PGresult *, PQexecPrepared,                                                                                \
      (PGconn * connection, const char *name, int count, const char *const *values, const int *lengths,         \
       const int *formats, int resultFormat),                                                                   \
      (connection, name, count, values, lengths, formats, resultFormat))                                        \
    X(void, PQfinish, (PGconn * connection), (connection))                                                       \
    X(char *, PQfname, (const PGresult *result, int field), (result, field))                                     \
    X(void, PQfreemem, (void *pointer), (pointer))                                                               \
    X(int, PQgetisnull, (const PGresult *result, int row, int field), (result, row, field))                     \
    X(char *, PQgetvalue, (const PGresult *result, int row, int field), (result, row, field))                   \
    X(int, PQnfields, (const PGresult *result), (result))                                                        \
    X(PGnotify *, PQnotifies, (PGconn * connection), (connection))                                               \
    X(int, PQntuples, (const PGresult *result), (result))                                                        \
    X(PGresult *, PQprepare,                                                                                     \
      (PGconn * connection, const char *name, const char *query, int count, const Oid *types),                  \
      (connection, name, query, count, types))                                                                   \
    X(void, PQreset, (PGconn * connection), (connection))                                                        \
    X(char *, PQresultErrorField, (const PGresult *result, int code), (result, code))                            \
    X(char *, PQresultErrorMessage, (const PGresult *result), (result))                                          \
    X(ExecStatusType, PQresultStatus, (const PGresult *result), (result))                                        \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * connection, PQnoticeProcessor processor, void *context), \
      (connection, processor, context))                                                                          \
    X(int, PQsocket, (const PGconn *connection), (connection))                                                   \
    X(ConnStatusType, PQstatus, (const PGconn *connection), (connection))                                        \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *connection), (connection))

#define SENTINEL_PQ_DECLARE(type, name, parameters, arguments) type sentinel_##name parameters;
SENTINEL_PQ_FUNCTIONS(SENTINEL_PQ_DECLARE)
#undef SENTINEL_PQ_DECLARE
