import Foundation
import Findings

/// SQL injection, three ways: a database error that a stray quote causes and a doubled quote
/// does not (error-based); answers that follow an injected condition — the true one as the
/// original, the false one different, twice with different conditions (boolean-based; with `OR`
/// the other way round, for a value that matches nothing, on lookups only); and an injected
/// `SLEEP`/`pg_sleep`/`WAITFOR` that delays the answer as asked (time-based), or for SQLite, which
/// has no sleep, a heavy query whose delay follows the work asked for (`SQLiteHeavyQuery.swift`).
public struct SQLInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "sqli", name: "SQL injection", severity: .critical, cwe: [89],
        help: "Pass values as query parameters (placeholders), never by building SQL text from input.")
    /// Error texts of SQLite, MySQL/MariaDB, PostgreSQL, SQL Server, Oracle and generic drivers.
    static let errors = [
        "sqlite3.OperationalError", "SQLITE_ERROR", "unrecognized token:", "near \"", "syntax error at or near",
        "You have an error in your SQL syntax", "mysql_fetch", "MySqlException", "SQLSTATE[", "pg_query():",
        "unterminated quoted string", "Unclosed quotation mark", "quoted string not properly terminated", "ORA-0",
        "ODBC SQL Server Driver", "psycopg2.errors", "org.postgresql.util.PSQLException", "java.sql.SQLException",
        "Microsoft OLE DB Provider for SQL Server", "SQL syntax error", "DB2 SQL error", "incomplete input",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Error-based, then boolean-based, then time-based; the first proof wins. Error- and
    /// boolean-based only where the point reacts to syntax (an error or a condition must show);
    /// time-based everywhere, since a blind injection shows nothing else.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let reacts = try context.reacts(point)
        if reacts, let finding = try errorBased(point, context) { return [finding] }
        if reacts, let finding = try booleanBased(point, context) { return [finding] }
        // MySQL's other string quote where a double quote changed the answer (the error probe
        // asked already: remembered, not sent again).
        let doubleQuotes = try reacts && BooleanProbe.quoteMatters(point, context: context, quote: "\"")
        if let finding = try timeBased(point, context, doubleQuotes: doubleQuotes) { return [finding] }
        if let finding = try heavyQueryBased(point, context, doubleQuotes: doubleQuotes) { return [finding] }
        return []
    }

    private func errorBased(_ point: InsertionPoint, _ context: ActiveContext) throws -> Finding? {
        let balanced = ["'": "''", "\"": "\"\""]
        let hit = try ErrorProbe.first(point, context: context, suffixes: ["'", "\""], signatures: Self.errors) { hit in
            // The balanced variant is valid SQL again: an error that stays is not about quoting.
            guard let (_, answer) = try context.send(point, point.original + (balanced[hit.suffix] ?? "")) else { return true }
            return !ErrorProbe.shown(answer.text).contains(hit.signature)
        }
        guard let hit else { return nil }
        return Self.rule.finding(
            at: point, message: "SQL injection in '\(point.name)': a \(hit.suffix) breaks the query (database error)",
            evidence: hit.evidence, web: WebFacts(technique: .error))
    }

    private func booleanBased(_ point: InsertionPoint, _ context: ActiveContext) throws -> Finding? {
        let value = point.original
        let numeric = point.isNumeric
        // Upper-case keywords: SQL accepts them, XPath does not (so the XPath check keeps its own).
        var shapes: [([String], [String])] = []
        if numeric { shapes.append(([" AND 1=1", " AND 2>1"], [" AND 1=2", " AND 2>3"])) }
        let quotes = try ["'", "\""].filter { try BooleanProbe.quoteMatters(point, context: context, quote: $0) }
        for quote in quotes {
            shapes.append(
                (
                    ["\(quote) AND \(quote)1\(quote)=\(quote)1", "\(quote) AND \(quote)b\(quote)>\(quote)a"],
                    ["\(quote) AND \(quote)1\(quote)=\(quote)2", "\(quote) AND \(quote)a\(quote)>\(quote)b"]
                ))
        }
        // A value that matches nothing (`WHERE name = 'nobody'`, a sign-in with a wrong password)
        // answers the same to every AND: there an OR decides, the false one as the original, the
        // true one wider. Only on lookups (reads, sign-ins): `OR 1=1` in an UPDATE or a DELETE
        // reaches every row.
        if point.endpoint.isLookup {
            if numeric { shapes.append(([" OR 1=2", " OR 2>3"], [" OR 1=1", " OR 2>1"])) }
            for quote in quotes {
                shapes.append(
                    (
                        ["\(quote) OR \(quote)1\(quote)=\(quote)2", "\(quote) OR \(quote)a\(quote)>\(quote)b"],
                        ["\(quote) OR \(quote)1\(quote)=\(quote)1", "\(quote) OR \(quote)b\(quote)>\(quote)a"]
                    ))
            }
        }
        for (holds, fails) in shapes {
            let holding = holds.map { value + $0 }
            let failing = fails.map { value + $0 }
            guard try BooleanProbe.confirms(point, context: context, holds: holding, fails: failing) else { continue }
            return Self.rule.finding(
                at: point,
                message: "SQL injection in '\(point.name)': injected conditions decide the answer (boolean-based)",
                evidence: "Request: \(point.request(holding[0]).summary) → the same answer as the original\n"
                    + "Request: \(point.request(failing[0]).summary) → a different answer",
                web: WebFacts(technique: .boolean))
        }
        return nil
    }

    /// MySQL's `SLEEP` in numeric and quoted contexts, PostgreSQL's stacked `pg_sleep`.
    private func timeBased(_ point: InsertionPoint, _ context: ActiveContext, doubleQuotes: Bool) throws -> Finding? {
        let numeric = point.isNumeric
        var mysql = ["' AND SLEEP(%d)-- -"]
        if doubleQuotes { mysql.append("\" AND SLEEP(%d)-- -") }
        if numeric { mysql.insert(" AND SLEEP(%d)", at: 0) }
        // Where the site's errors named engines, only their sleeps (SQLite has none of its own:
        // MySQL's spelling stays, the one SQLite apps register, PostgreSQL's goes).
        let named = context.engines.all
        let templates =
            (named.isEmpty || !named.isDisjoint(with: [.mysql, .sqlite]) ? mysql : [])
            + (named.isEmpty || named.contains(.postgres) ? ["';SELECT pg_sleep(%d)--"] : [])
        for template in templates {
            var evidence = ""
            let confirmed = try TimingOracle.confirms(baseline: context.baseline.elapsed) { delay in
                let value = point.original + template.replacingOccurrences(of: "%d", with: String(Int(delay)))
                guard let (request, response) = try context.sendAgain(point, value) else { return nil }
                evidence += "\(request.url) took \(String(format: "%.2f", response.elapsed)) s\n"
                return response.elapsed
            }
            guard confirmed else { continue }
            return Self.rule.finding(
                at: point, message: "SQL injection in '\(point.name)': an injected sleep delays the answer (time-based)",
                evidence: "Baseline: \(String(format: "%.2f", context.baseline.elapsed)) s\n" + evidence,
                web: WebFacts(technique: .time))
        }
        return nil
    }
}
