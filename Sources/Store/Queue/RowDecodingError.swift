/// A queue row that is not what its reader declared: a column missing from the result, NULL where a
/// value is required, or text that is not the column's type (a hostile or corrupt row, or one a
/// newer build wrote). Thrown by `QueueRow`'s readers; never a crash, never a default in its place.
struct RowDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the column.
    struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// Stable kebab-case identifier.
        var rawValue: String
        /// A code; the static members are the ones `QueueRow` throws.
        init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        var description: String { rawValue }

        /// The result has no column by that name (or two): the query and its reader disagree.
        static let missingColumn = Code(rawValue: "missing-column")
        /// NULL in a column the reader requires.
        static let null = Code(rawValue: "null")
        /// Text that is not the column's type (`abc` for an integer, `NaN` for a time).
        static let malformed = Code(rawValue: "malformed")
        /// A value outside the column's enumeration (a job kind or state this build does not know).
        static let unknownValue = Code(rawValue: "unknown-value")
    }

    /// What is wrong.
    var code: Code
    /// The column, by name.
    var column: String
    /// The text found (nil for NULL or a missing column).
    var value: String?
    /// What the reader expected ("an integer"), for `malformed`.
    var expected: String

    /// An error about `column`.
    init(_ code: Code, column: String, value: String? = nil, expected: String = "") {
        self.code = code
        self.column = column
        self.value = value
        self.expected = expected
    }

    /// One line naming the column: `unknown kind 'x'` (the wording `fleet jobs` has always used),
    /// `column 'attempts': 'abc' is not an integer`. A long value is cut: it is someone's data.
    var description: String {
        let shown = value.map { $0.count > 64 ? String($0.prefix(64)) + "…" : $0 } ?? ""
        switch code {
        case .missingColumn: return "no single column '\(column)' in the result"
        case .null: return "column '\(column)' is NULL"
        case .unknownValue: return "unknown \(column) '\(shown)'"
        default: return "column '\(column)': '\(shown)' is not \(expected)"
        }
    }
}
