/// One result row of a queue query, read by column name: each reader checks the column is there,
/// not NULL where a value is required, and of its type, and throws a `RowDecodingError` naming the
/// column otherwise. No queue code reads a row by position.
struct QueueRow: Sendable {
    /// Column name → position; -1 for a name the result has twice (reading it is an error).
    let positions: [String: Int]
    /// The values as text, nil for NULL.
    let values: [String?]

    /// Names `columns`, once per result: its rows share the dictionary.
    static func positions(of columns: [String]) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (position, name) in columns.enumerated() {
            positions[name] = positions[name] == nil ? position : -1
        }
        return positions
    }

    /// The column's text as stored, nil for NULL or a column the result lacks: for naming a row in
    /// a message only (an unreadable row's id), never for its data.
    func raw(_ column: String) -> String? {
        guard let position = positions[column], position >= 0, position < values.count else { return nil }
        return values[position]
    }

    /// The column's text, nil for NULL.
    func optionalText(_ column: String) throws(RowDecodingError) -> String? {
        guard let position = positions[column], position >= 0, position < values.count else {
            throw RowDecodingError(.missingColumn, column: column)
        }
        return values[position]
    }

    /// The column's text; NULL is an error.
    func text(_ column: String) throws(RowDecodingError) -> String {
        guard let text = try optionalText(column) else { throw RowDecodingError(.null, column: column) }
        return text
    }

    /// The column as a 64-bit integer.
    func int64(_ column: String) throws(RowDecodingError) -> Int64 {
        let text = try text(column)
        guard let value = Int64(text) else {
            throw RowDecodingError(.malformed, column: column, value: text, expected: "an integer")
        }
        return value
    }

    /// The column as an integer.
    func int(_ column: String) throws(RowDecodingError) -> Int {
        let text = try text(column)
        guard let value = Int(text) else {
            throw RowDecodingError(.malformed, column: column, value: text, expected: "an integer")
        }
        return value
    }

    /// The column as a 32-bit integer (an exit status).
    func int32(_ column: String) throws(RowDecodingError) -> Int32 {
        let text = try text(column)
        guard let value = Int32(text) else {
            throw RowDecodingError(.malformed, column: column, value: text, expected: "a 32-bit integer")
        }
        return value
    }

    /// The column as a finite number (a time or a duration), nil for NULL.
    func optionalDouble(_ column: String) throws(RowDecodingError) -> Double? {
        guard let text = try optionalText(column) else { return nil }
        // Double("nan") and Double("inf") parse; no stored time is either.
        guard let value = Double(text), value.isFinite else {
            throw RowDecodingError(.malformed, column: column, value: text, expected: "a finite number")
        }
        return value
    }

    /// The column as a finite number; NULL is an error.
    func double(_ column: String) throws(RowDecodingError) -> Double {
        guard let value = try optionalDouble(column) else { throw RowDecodingError(.null, column: column) }
        return value
    }

    /// A 0/1 flag (SQLite's integers) or a boolean (PostgreSQL's `t`/`f`).
    func flag(_ column: String) throws(RowDecodingError) -> Bool {
        let text = try text(column)
        switch text {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw RowDecodingError(.malformed, column: column, value: text, expected: "a flag (0 or 1)")
        }
    }

    /// The column as one of an enumeration's stored values (`JobKind`, `JobState`).
    func value<Value: RawRepresentable>(_ column: String, as type: Value.Type) throws(RowDecodingError) -> Value
    where Value.RawValue == String {
        let text = try text(column)
        guard let value = Value(rawValue: text) else { throw RowDecodingError(.unknownValue, column: column, value: text) }
        return value
    }
}
