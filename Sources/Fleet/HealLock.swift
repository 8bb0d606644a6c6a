import Audit

/// The name of the fleet-wide lock a heal takes for its problem (its job's `exclusiveKey`), so that
/// two workers claiming heals of one problem at once run one of them (issue 58).
///
/// Any database login may take any advisory lock: PostgreSQL grants `pg_try_advisory_lock` to all,
/// and a lock's name is all that names it. Named after the job's key alone (a digest of a repository
/// and its signals, which a submitter can compute), another tenant held it and the worker released
/// her heal again and again (issue 78, W8). Keyed with the fleet's audit key, which the workers
/// hold and the database never does, the name is one no submitter or reader can compute. An
/// approver holding the key could; it is trusted with the chains that key links already. A row
/// lock instead would hold a transaction open for a whole heal on the connection the worker's
/// slots share, and a lease row would need renewing: the keyed name changes nothing else.
enum HealLock {
    /// The lock's name for heals of `exclusiveKey` under the fleet's `key`.
    static func name(exclusiveKey: String, key: AuditKey) -> String {
        "sentinel-heal:" + key.derivedName("fleet heal lock", exclusiveKey)
    }
}
