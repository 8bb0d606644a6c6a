import Store

/// A plain connection to a queue's database, beside the queue: for writing fixtures as an older
/// build (or someone with the database's password) would, and for reading what is stored.
final class RawConnection {
    private let sqlite: Database?
    private let postgres: PostgresConnection?

    init(_ url: DatabaseURL) throws {
        switch url {
        case .sqlite(let path):
            sqlite = try Database(path: path)
            postgres = nil
        case .postgres:
            sqlite = nil
            postgres = try PostgresConnection(url: url)
        }
    }

    /// Runs `;`-separated statements.
    func execute(_ sql: String) throws {
        if let sqlite { try sqlite.execute(sql) } else { try postgres?.execute(sql) }
    }

    /// One statement's rows as text, nil for NULL.
    func rows(_ sql: String) throws -> [[String?]] {
        guard let sqlite else { return try postgres?.query(sql) ?? [] }
        let statement = try sqlite.prepare(sql)
        var rows: [[String?]] = []
        while try statement.step() { rows.append((0..<statement.columnCount).map { statement.text($0) }) }
        return rows
    }
}
