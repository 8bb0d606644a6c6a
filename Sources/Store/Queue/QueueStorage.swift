import Support

/// The SQL connection a `JobQueue` runs on: one per backend, so that the queue's logic (and the
/// shared test suite) is the same for SQLite and PostgreSQL. Statements use `$1`, `$2`...
/// placeholders and `{now}` for the current time in seconds since 1970.
protocol QueueStorage: AnyObject {
    /// The server or file, for messages.
    var name: String { get }
    /// True for PostgreSQL: `FOR UPDATE SKIP LOCKED` and `NOTIFY` exist.
    var isServer: Bool { get }
    /// Runs one statement and returns its rows, read by column name.
    @discardableResult func rows(_ sql: String, _ parameters: [String?]) throws -> [QueueRow]
    /// Runs `;`-separated statements without parameters.
    func script(_ sql: String) throws
    /// All of `body` or nothing; on SQLite the write lock is taken up front. Called inside a
    /// transaction, `body` joins it (no savepoint: an error rolls the outer one back).
    func transaction<Result>(_ body: () throws -> Result) throws -> Result
    /// Takes the lock named `key` for this connection without waiting; false when another holds it.
    /// A connection that ends (a process killed) releases its locks.
    func tryLock(_ key: String) throws -> Bool
    /// Releases a lock `tryLock` took.
    func unlock(_ key: String) throws
    /// Sends `payload` to listeners of `channel` (on commit, inside a transaction).
    func notify(_ channel: String, payload: String) throws
    /// Waits up to `timeout` seconds for a notification on `channel` (the payload), or for the
    /// poll interval where the backend has no notifications.
    func wait(channel: String, timeout: Double) throws -> String?
    /// Waits up to `timeout` seconds for a notification on any of `channels` (LISTEN on each
    /// first); nil when none came, at once where the backend has no notifications.
    func waitAny(channels: [String], timeout: Double) throws -> (channel: String, payload: String)?
    /// Reconnects when the server connection broke (a restart); nothing for SQLite.
    func reconnectIfNeeded() throws
    /// True when the table `name` exists (without failing a statement, which on PostgreSQL would
    /// abort the transaction it is in).
    func tableExists(_ name: String) throws -> Bool
}

extension QueueStorage {
    /// Reads `rows` with `decode`, one place per query; a row it cannot read is a `.database` error
    /// naming the storage, the table and the column.
    func decode<Value>(_ rows: [QueueRow], table: String, _ decode: (QueueRow) throws(RowDecodingError) -> Value) throws -> [Value] {
        do throws(RowDecodingError) {
            return try rows.map(decode)
        } catch {
            throw SentinelError(.database, "\(name): a \(table) row is unreadable: \(error)")
        }
    }

    /// The first row, read with `decode`; nil when there is none.
    func first<Value>(_ rows: [QueueRow], table: String, _ decode: (QueueRow) throws(RowDecodingError) -> Value) throws -> Value? {
        try self.decode(Array(rows.prefix(1)), table: table, decode).first
    }
}
