import Foundation
import Support

/// `QueueStorage` on one PostgreSQL connection: advisory locks keyed by a 64-bit hash of the
/// lock's name (`hashtextextended`), LISTEN/NOTIFY for wake-ups.
final class PostgresQueueStorage: QueueStorage {
    let connection: PostgresConnection
    var name: String { connection.server }
    var isServer: Bool { true }

    init(url: DatabaseURL) throws {
        connection = try PostgresConnection(url: url)
    }

    func rows(_ sql: String, _ parameters: [String?]) throws -> [QueueRow] {
        let result = try connection.table(Self.expand(sql), parameters)
        let positions = QueueRow.positions(of: result.columns)
        return result.rows.map { QueueRow(positions: positions, values: $0) }
    }

    func script(_ sql: String) throws { try connection.execute(Self.expand(sql)) }

    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        // Inside one already (an audit line appended in an outcome's transaction): it joins it.
        if connection.isInTransaction { return try body() }
        return try connection.transaction(body)
    }

    func tryLock(_ key: String) throws -> Bool {
        try first(rows("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", [key]), table: "lock") {
            row throws(RowDecodingError) in
            try row.flag("locked")
        } == true
    }

    func unlock(_ key: String) throws {
        try connection.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key])
    }

    func notify(_ channel: String, payload: String) throws {
        try connection.query("SELECT pg_notify($1, $2)", [channel, payload])
    }

    func wait(channel: String, timeout: Double) throws -> String? {
        try connection.listen(channel)
        let deadline = MonotonicClock.seconds() + timeout
        while true {
            let remaining = deadline - MonotonicClock.seconds()
            guard remaining > 0, let note = try connection.waitForNotification(timeout: remaining) else { return nil }
            if note.channel == channel { return note.payload }
        }
    }

    func waitAny(channels: [String], timeout: Double) throws -> (channel: String, payload: String)? {
        for channel in channels { try connection.listen(channel) }
        let deadline = MonotonicClock.seconds() + timeout
        while true {
            let remaining = deadline - MonotonicClock.seconds()
            guard remaining > 0, let note = try connection.waitForNotification(timeout: remaining) else { return nil }
            if channels.contains(note.channel) { return (note.channel, note.payload) }
        }
    }

    func reconnectIfNeeded() throws {
        if !connection.isConnected { try connection.reconnect() }
    }

    func tableExists(_ name: String) throws -> Bool {
        // By the search path, as the unqualified names of every other statement resolve.
        try first(rows("SELECT to_regclass($1) IS NOT NULL AS present", [name]), table: "pg_class") { row throws(RowDecodingError) in
            try row.flag("present")
        } == true
    }

    /// `{now}`: the server's clock, so that machines with skewed clocks agree on leases.
    static let expand = SQLTemplates { sql in
        sql.replacingOccurrences(of: "{now}", with: "extract(epoch from clock_timestamp())::double precision")
            .replacingOccurrences(of: "{skip_locked}", with: "FOR UPDATE SKIP LOCKED")
            .replacingOccurrences(of: "{serial}", with: "BIGSERIAL PRIMARY KEY")
    }
}
