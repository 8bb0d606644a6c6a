import Testing

@testable import Store

/// Issue 57, typed rows: a queue row is read by column name, and a column that is missing, NULL or
/// not of its type is a `RowDecodingError` naming it: never a crash, never a default in its place.
struct QueueRowTests {
    static func row(_ columns: [String], _ values: [String?]) -> QueueRow {
        QueueRow(positions: QueueRow.positions(of: columns), values: values)
    }

    static func failure(_ read: () throws(RowDecodingError) -> Void) -> RowDecodingError? {
        do throws(RowDecodingError) {
            try read()
            return nil
        } catch {
            return error
        }
    }

    @Test("columns are read by name, whatever their position")
    func byName() throws {
        let row = Self.row(["state", "id", "started_at", "cancel_requested"], ["running", "42", nil, "t"])
        #expect(try row.int64("id") == 42 && row.value("state", as: JobState.self) == .running)
        #expect(try row.optionalDouble("started_at") == nil && row.flag("cancel_requested"))
    }

    @Test(
        "each unreadable column is a typed error naming it",
        arguments: [
            ("id", RowDecodingError.Code.missingColumn, "no single column 'id' in the result"),
            ("attempts", .malformed, "column 'attempts': '3x' is not an integer"),
            ("created_at", .malformed, "column 'created_at': 'nan' is not a finite number"),
            ("spec", .null, "column 'spec' is NULL"),
            ("state", .unknownValue, "unknown state 'paused'"),
            ("cancel_requested", .malformed, "column 'cancel_requested': '2' is not a flag (0 or 1)"),
            ("kind", .missingColumn, "no single column 'kind' in the result"),
        ])
    func unreadable(_ column: String, _ code: RowDecodingError.Code, _ message: String) throws {
        // `kind` twice: a join whose two columns share a name is never read as either.
        let row = Self.row(
            ["attempts", "created_at", "spec", "state", "cancel_requested", "kind", "kind"],
            ["3x", "nan", nil, "paused", "2", "scan", "heal"])
        let error = try #require(
            Self.failure { () throws(RowDecodingError) in
                switch column {
                case "attempts", "id": _ = try row.int(column)
                case "created_at": _ = try row.double(column)
                case "spec": _ = try row.text(column)
                case "state": _ = try row.value(column, as: JobState.self)
                case "kind": _ = try row.value(column, as: JobKind.self)
                default: _ = try row.flag(column)
                }
            })
        #expect(error.code == code && error.column == column && error.description == message)
    }

    @Test("a hostile value is cut in the message, not echoed whole")
    func longValue() throws {
        let row = Self.row(["kind"], [String(repeating: "x", count: 10_000)])
        let error = try #require(Self.failure { () throws(RowDecodingError) in _ = try row.value("kind", as: JobKind.self) })
        #expect(error.description == "unknown kind '\(String(repeating: "x", count: 64))…'")
    }

    @Test("a job row missing a column its reader declares is an error, not a job with a default")
    func jobMissingColumn() throws {
        let columns = Job.columns.filter { $0 != "lease_expiries" }
        let values: [String?] = columns.map { column in
            switch column {
            case "id", "priority", "max_attempts", "attempts": "1"
            case "kind": "scan"
            case "state": "queued"
            case "created_at": "1700000000"
            case "exclusive_key", "last_error", "lease_owner", "lease_token", "started_at", "finished_at": nil
            default: "x"
            }
        }
        let error = try #require(Self.failure { () throws(RowDecodingError) in _ = try Job(row: Self.row(columns, values)) })
        #expect(error.code == .missingColumn && error.column == "lease_expiries")
        #expect(try Job(row: Self.row(columns + ["lease_expiries"], values + ["0"])).request.repository == "x")
    }
}
