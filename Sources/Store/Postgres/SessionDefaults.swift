/// What every PostgreSQL session Sentinel opens is set to unless the operator says otherwise, so
/// that no stopped, partitioned or hung client can hold the fleet up for long:
///
/// - `lock_timeout` 5 s: a statement waiting on a lock another session holds fails instead of waiting
///   for ever (the caller retries, or reports).
/// - `statement_timeout` 60 s: no statement runs longer; a long one (a migration, a prune, a full
///   audit verification) raises its own with `SET LOCAL`.
/// - `idle_in_transaction_session_timeout` 15 s: the server ends a session that holds a transaction
///   open without sending anything (a SIGSTOPped worker inside an outcome's transaction), releasing
///   its row locks; every statement Sentinel runs in a transaction follows the previous at once.
/// - TCP keepalives (`keepalives=1`, idle 10 s, every 5 s, 3 probes) and `tcp_user_timeout` 30 s: a
///   server or network that vanishes is noticed in about half a minute, not after TCP's two hours.
///
/// The connection keywords are libpq defaults the URL overrides (`?keepalives_idle=60`); the
/// settings are applied only where nobody set them (`?options=-c%20lock_timeout%3D30s`, `PGOPTIONS`,
/// `ALTER ROLE … SET`, postgresql.conf all win).
public enum SessionDefaults {
    /// libpq connection keywords and their default values.
    public static let connection: [(keyword: String, value: String)] = [
        ("connect_timeout", "10"), ("application_name", "sentinel"), ("keepalives", "1"), ("keepalives_idle", "10"),
        ("keepalives_interval", "5"), ("keepalives_count", "3"), ("tcp_user_timeout", "30000"),
    ]

    /// Server settings (`SET`) and their default values.
    public static let settings: [(name: String, value: String)] = [
        ("lock_timeout", "5s"), ("statement_timeout", "60s"), ("idle_in_transaction_session_timeout", "15s"),
    ]
}
