/// A typed value read from one queue row, by the columns it declares: the query selects
/// `selectList` and the one `init(row:)` reads them by name, so query and reader cannot drift
/// apart by position.
protocol QueueRowDecodable {
    /// The columns a query selects (or returns) for this type.
    static var columns: [String] { get }
    /// Reads one row; a missing, NULL or malformed column is a `RowDecodingError` naming it.
    init(row: QueueRow) throws(RowDecodingError)
}

extension QueueRowDecodable {
    /// `columns` as a SELECT or RETURNING list.
    static var selectList: String { columns.joined(separator: ", ") }

    /// `columns` of the table aliased `table`, each named as itself (`f.rule_id AS rule_id`).
    static func selectList(from table: String) -> String {
        columns.map { "\(table).\($0) AS \($0)" }.joined(separator: ", ")
    }
}
