import CPostgres
import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#endif

extension SentinelError.Code {
    /// The database server refused a connection or a statement (fleet mode).
    public static let database = SentinelError.Code("database")
}

/// One PostgreSQL connection through libpq, PostgreSQL's own client library: the connection URI,
/// `PGPASSFILE`, `PGSSLMODE` and the other `PG*` variables mean what they mean to `psql`. Store is
/// the only module that calls libpq; every failure is a `SentinelError(.database)` naming the server
/// (its URL without the password) and the statement.
///
/// Not thread-safe: open one per thread, as with `Database`.
public final class PostgresConnection {
    /// The server, for messages: the URL with any password removed.
    public let server: String
    private let handle: OpaquePointer
    private var listening: Set<String> = []

    /// Connects to `url` (`postgres://user@host:port/db?sslmode=require`) with `SessionDefaults`: a
    /// connection that takes longer than 10 s fails, TCP keepalives notice a vanished peer, and the
    /// session's lock, statement and idle-in-transaction timeouts are set. Each is a default the URL
    /// overrides (`?connect_timeout=30&keepalives_idle=60`, `?options=-c%20lock_timeout%3D30s`).
    public init(url: DatabaseURL) throws {
        guard case .postgres(let uri) = url else {
            throw SentinelError(.invalidInput, "\(url.redacted): not a postgres:// URL")
        }
        server = url.redacted
        if let missing = sentinel_pq_load() {
            throw SentinelError(.database, "\(server): cannot connect: libpq: \(String(cString: missing))")
        }
        // Keywords before `dbname` are defaults the URI (expanded from `dbname`) may override.
        let defaults = SessionDefaults.connection
        let keywords = defaults.map(\.keyword) + ["dbname"]
        let values = defaults.map(\.value) + [uri]
        let connection = CStringArray.with(keywords) { keys in
            CStringArray.with(values) { vals in sentinel_PQconnectdbParams(keys, vals, 1) }
        }
        guard let connection else { throw SentinelError(.database, "\(server): cannot connect: out of memory") }
        guard sentinel_PQstatus(connection) == CONNECTION_OK else {
            let message = Self.firstLine(sentinel_PQerrorMessage(connection))
            sentinel_PQfinish(connection)
            throw SentinelError(.database, "\(server): cannot connect: \(message)")
        }
        handle = connection
        // The server's NOTICE lines ("relation already exists, skipping") are not ours to print.
        sentinel_PQsetNoticeProcessor(handle, { _, _ in }, nil)
        try configureSession()
    }

    /// Sets `SessionDefaults.settings` that nobody else set for this session: not the URL's
    /// `options`, `PGOPTIONS`, the role's or database's `ALTER … SET`, nor the server's file
    /// (their source is not `default` then). One round trip, at every (re)connection.
    private func configureSession() throws {
        let values = SessionDefaults.settings.map { "('\($0.name)', '\($0.value)')" }.joined(separator: ", ")
        try query(
            """
            SELECT set_config(wanted.name, wanted.value, false) FROM (VALUES \(values)) AS wanted (name, value)
            JOIN pg_settings ON pg_settings.name = wanted.name WHERE pg_settings.source = 'default'
            """)
    }

    /// True while a transaction is open on this connection (or failed and not yet rolled back).
    public var isInTransaction: Bool {
        let status = sentinel_PQtransactionStatus(handle)
        return status != PQTRANS_IDLE && status != PQTRANS_UNKNOWN
    }

    deinit { sentinel_PQfinish(handle) }

    /// True while the connection to the server is up.
    public var isConnected: Bool { sentinel_PQstatus(handle) == CONNECTION_OK }

    /// Re-establishes a broken connection (after a server restart); channels are listened to again.
    public func reconnect() throws {
        sentinel_PQreset(handle)
        // A new session: the old one's prepared statements went with it.
        prepared.removeAll()
        runs.removeAll()
        guard isConnected else {
            throw SentinelError(.database, "\(server): cannot reconnect: \(Self.firstLine(sentinel_PQerrorMessage(handle)))")
        }
        try configureSession()
        let channels = listening
        listening = []
        for channel in channels { try listen(channel) }
    }

    /// Runs one statement with text parameters (`$1`, `$2`...; nil is NULL) and returns its rows as
    /// text (nil for NULL).
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try table(sql, parameters).rows
    }

    /// `query`, with the result's column names (`AS` aliases, else what the server names them), so
    /// that rows are read by name.
    func table(_ sql: String, _ parameters: [String?] = []) throws -> (columns: [String], rows: [[String?]]) {
        guard let name = try preparedName(sql, parameterCount: parameters.count) else {
            let result = CStringArray.with(optional: parameters) { values in
                sentinel_PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
            return try rows(of: result, sql: sql)
        }
        let result = CStringArray.with(optional: parameters) { values in
            sentinel_PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        do {
            return try rows(of: result, sql: sql)
        } catch let error as SentinelError where error.message.hasSuffix("(SQLSTATE 0A000)") {
            // "cached plan must not change result type": a table changed under the statement
            // (another build migrated it). Planned afresh from the next run on.
            prepared[sql] = nil
            throw error
        }
    }

    /// The server-side name of `sql`, prepared at its `Self.prepareAt`-th run on this session
    /// (psycopg prepares at the fifth): a worker's few statements run for every job, and are then
    /// parsed and planned once rather than at each run. Nil: run it unprepared.
    private func preparedName(_ sql: String, parameterCount: Int) throws -> String? {
        if let name = prepared[sql] { return name }
        guard prepared.count < Self.preparedLimit else { return nil }
        if runs.count >= Self.preparedLimit * 4 { runs.removeAll(keepingCapacity: true) }
        let count = runs[sql, default: 0] + 1
        runs[sql] = count
        guard count >= Self.prepareAt else { return nil }
        preparedSerial += 1
        let name = "sentinel_\(preparedSerial)"
        _ = try rows(of: sentinel_PQprepare(handle, name, sql, Int32(parameterCount), nil), sql: sql)
        prepared[sql] = name
        runs[sql] = nil
        return name
    }

    /// Statements prepared on this session, by text.
    private var prepared: [String: String] = [:]
    /// Names are never reused on a session, even after a statement was forgotten.
    private var preparedSerial = 0
    /// How often each statement not yet prepared has run.
    private var runs: [String: Int] = [:]
    private static let prepareAt = 3
    private static let preparedLimit = 256

    /// Runs one or more `;`-separated statements without parameters.
    public func execute(_ sql: String) throws {
        _ = try rows(of: sentinel_PQexec(handle, sql), sql: sql)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isConnected { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Subscribes this connection to `channel` (`LISTEN`, once); `waitForNotification` then returns
    /// its notifications.
    public func listen(_ channel: String) throws {
        guard !channel.isEmpty, channel.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 >= 97 && $0 <= 122) }) else {
            throw SentinelError(.invalidInput, "'\(channel)': a channel name is lower-case letters and '_'")
        }
        guard !listening.contains(channel) else { return }
        try execute("LISTEN \(channel)")
        listening.insert(channel)
    }

    /// Waits up to `timeout` seconds for a notification on a channel this connection listens to;
    /// nil when none came. The wait is `poll(2)` on the connection's socket: no query runs while
    /// nothing happens.
    public func waitForNotification(timeout: Double) throws -> PostgresNotification? {
        if let pending = nextNotification() { return pending }
        let deadline = MonotonicClock.seconds() + max(0, timeout)
        while true {
            let remaining = deadline - MonotonicClock.seconds()
            guard remaining > 0 else { return nil }
            let socket = sentinel_PQsocket(handle)
            guard socket >= 0 else { throw SentinelError(.database, "\(server): the connection is closed") }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if ready < 0 && errno != EINTR { throw SentinelError(.database, "\(server): poll failed", errno: .current) }
            guard ready > 0 else { continue }
            guard sentinel_PQconsumeInput(handle) == 1 else {
                throw SentinelError(.database, "\(server): connection lost: \(Self.firstLine(sentinel_PQerrorMessage(handle)))")
            }
            if let notification = nextNotification() { return notification }
        }
    }

    private func nextNotification() -> PostgresNotification? {
        guard let notify = sentinel_PQnotifies(handle) else { return nil }
        defer { sentinel_PQfreemem(notify) }
        return PostgresNotification(
            channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra))
    }

    private func rows(of result: OpaquePointer?, sql: String) throws -> (columns: [String], rows: [[String?]]) {
        guard let result else {
            throw SentinelError(.database, "\(server): \(Self.statementName(sql)): \(Self.firstLine(sentinel_PQerrorMessage(handle)))")
        }
        defer { sentinel_PQclear(result) }
        switch sentinel_PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: return ([], [])
        case PGRES_TUPLES_OK:
            let count = sentinel_PQntuples(result)
            let columns = sentinel_PQnfields(result)
            let names = (0..<columns).map { column in sentinel_PQfname(result, column).map { String(cString: $0) } ?? "" }
            var rows: [[String?]] = []
            rows.reserveCapacity(Int(count))
            for row in 0..<count {
                rows.append(
                    (0..<columns).map { column in
                        sentinel_PQgetisnull(result, row, column) == 1 ? nil : String(cString: sentinel_PQgetvalue(result, row, column))
                    })
            }
            return (names, rows)
        default:
            let state = sentinel_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = Self.firstLine(sentinel_PQresultErrorMessage(result))
            throw SentinelError(
                .database, "\(server): \(Self.statementName(sql)): \(message)\(state.isEmpty ? "" : " (SQLSTATE \(state))")")
        }
    }

    /// The statement's first words, to name it in a message without its data.
    static func statementName(_ sql: String) -> String {
        sql.split(whereSeparator: \.isWhitespace).prefix(3).joined(separator: " ")
    }

    static func firstLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
}

/// One `NOTIFY` received: its channel and payload.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel (`LISTEN` name).
    public var channel: String
    /// The payload text (may be empty).
    public var payload: String

    /// A notification on `channel` carrying `payload`.
    public init(channel: String, payload: String) {
        self.channel = channel
        self.payload = payload
    }
}
