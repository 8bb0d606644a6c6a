import Foundation
import Store
import Support

extension OSVDatabase {
    /// The advisories that affect `dependency` (none when it has no pinned version). Withdrawn
    /// records are never matched; a `withdrawn` date still in the future is not a withdrawal yet. One indexed query on (ecosystem, normalised name).
    ///
    /// Go's standard library and toolchain are looked up as packages `stdlib` and `toolchain` of
    /// ecosystem `Go`, with the `go` directive's version in any spelling Go uses (`1.21`,
    /// `1.21.3`, `go1.21rc1`).
    public func lookup(_ dependency: Dependency) throws -> [VulnerabilityMatch] {
        try lookup([dependency]).first ?? []
    }

    /// `lookup` for many dependencies with one prepared statement; the result is aligned with
    /// the input. Parsed versions and built advisories are kept on this connection for later
    /// lookups (the "warm" case) until the next import.
    public func lookup(_ dependencies: [Dependency]) throws -> [[VulnerabilityMatch]] {
        var lookup = try cachedLookup ?? Lookup(self)
        defer { cachedLookup = lookup }
        return try dependencies.map { try lookup.matches(for: $0) }
    }
}

/// A reusable lookup: the prepared query plus a per-batch cache of parsed advisories.
struct Lookup {
    private let query: Statement
    private let aliasQuery: Statement
    /// Per advisory id: the best severity among its alias records (nil: none has one).
    private var aliasSeverities = [String: AliasSeverity?]()

    struct AliasSeverity {
        var id: String
        var assessment: SeverityAssessment
    }
    private var advisories = [String: Advisory]()
    private var evaluators = [String: VersionEvaluator]()
    /// Record-level columns of rows seen, turned into an `Advisory` only when a record matches.
    private var rows = [String: RecordRow]()
    /// Per package (`ecosystem<tab>name`): its advisories' ids, labels and prepared entries.
    private var packages = [String: [(id: String, labels: [String?], prepared: AnyObject)]]()
    /// Now, as a `modified`/`withdrawn` sort key: records withdrawn after it still match.
    private let now = OSVTimestamp.sortKey(of: Date())

    struct RecordRow {
        var aliases, summary, modified, published, severity, databaseSeverity, references: String?
    }

    init(_ database: OSVDatabase) throws {
        query = try database.connection.prepare(
            """
            SELECT r.id, r.aliases, r.summary, r.modified, r.published, r.severity, r.db_severity, r.refs,
                   a.ecosystem, a.ranges, a.versions, a.severity, r.withdrawn
            FROM affected a JOIN records r ON r.rid = a.rid
            WHERE a.ecosystem = ?1 AND a.name = ?2
            ORDER BY r.id
            """)
        // Aliases both ways: the record named by an alias, and records that list the id (or one
        // of its aliases, e.g. the same CVE) among their own aliases.
        aliasQuery = try database.connection.prepare(
            """
            SELECT r.id, r.severity, r.db_severity, r.withdrawn FROM records r
            WHERE r.id = ?1 OR r.rid IN (SELECT rid FROM aliases WHERE alias = ?1)
            """)
    }

    mutating func matches(for dependency: Dependency) throws -> [VulnerabilityMatch] {
        guard let version = dependency.version, !version.isEmpty else { return [] }
        let evaluator = evaluators[dependency.ecosystem.name] ?? dependency.ecosystem.makeVersionCache()
        evaluators[dependency.ecosystem.name] = evaluator
        let name = dependency.ecosystem.normalisedPackageName(dependency.name)
        let packageKey = dependency.ecosystem.name + "\t" + name
        let groups = try packages[packageKey] ?? fetch(dependency, name: name, evaluator: evaluator)
        packages[packageKey] = groups
        let matches = groups.compactMap { group -> VulnerabilityMatch? in
            let outcome = evaluator.evaluate(version, group.prepared)
            guard outcome.isAffected, var advisory = advisory(group.id) else { return nil }
            advisory.severity = severity(of: advisory, entryLabels: group.labels)
            return VulnerabilityMatch(
                advisory: advisory, ecosystem: dependency.ecosystem, package: dependency.name,
                version: version, affectedRange: outcome.matchedBy ?? "",
                fixedVersions: outcome.fixedVersions, smallestFix: outcome.smallestFix,
                fixIsSameMajor: outcome.fixIsSameMajor, onlyByOpenRangeBeyondListed: outcome.onlyByOpenRangeBeyondListed)
        }
        return matches
    }

    /// The highest of the record's own severity (its CVSS score, else its labels, record or
    /// affected entry) and its alias records' (`SeverityAssessment.outranks`); else `unknown`.
    private mutating func severity(of advisory: Advisory, entryLabels: [String?]) -> SeverityAssessment {
        var assessment = advisory.severity
        if !assessment.isFromCVSS, let label = entryLabels.compactMap({ $0.flatMap(AdvisorySeverity.init(label:)) }).max(),
            assessment.isUnknown || label > assessment.severity
        {
            assessment = SeverityAssessment(severity: label, score: nil, vector: nil, source: "database")
        }
        if let alias = (try? aliasSeverity(of: advisory)) ?? nil {
            assessment = assessment.borrowing(from: alias.assessment, id: alias.id)
        }
        return assessment
    }

    /// The alias record whose severity is highest (`SeverityAssessment.outranks`).
    private mutating func aliasSeverity(of advisory: Advisory) throws -> AliasSeverity? {
        if let known = aliasSeverities[advisory.id] { return known }
        var best: AliasSeverity?
        for key in [advisory.id] + advisory.aliases {
            aliasQuery.reset()
            aliasQuery.bind(1, key)
            while try aliasQuery.step() {
                let id = aliasQuery.text(0) ?? ""
                guard id != advisory.id, !OSVTimestamp.isPast(aliasQuery.text(3), now: now) else { continue }
                let entries = Self.pairs(aliasQuery.text(1)).map { OSVSeverity(type: $0.0, score: $0.1) }
                let found = SeverityAssessment.assess(severity: entries, databaseLabels: [aliasQuery.text(2)])
                guard !found.isUnknown else { continue }
                if let current = best?.assessment, !found.outranks(current) { continue }
                best = AliasSeverity(id: id, assessment: found)
            }
        }
        aliasSeverities[advisory.id] = .some(best)
        return best
    }

    /// One indexed query: the package's advisories, grouped by record and prepared for evaluation.
    private mutating func fetch(
        _ dependency: Dependency, name: String,
        evaluator: VersionEvaluator
    ) throws -> [(id: String, labels: [String?], prepared: AnyObject)] {
        query.reset()
        query.bind(1, dependency.ecosystem.name)
        query.bind(2, name)
        // Rows arrive grouped by record id; an advisory may list the package in several entries.
        var grouped = [(id: String, entries: [OSVAffected], labels: [String?])]()
        while try query.step() {
            guard !OSVTimestamp.isPast(query.text(12), now: now) else { continue }
            let id = query.text(0) ?? ""
            if rows[id] == nil {
                rows[id] = RecordRow(
                    aliases: query.text(1), summary: query.text(2), modified: query.text(3),
                    published: query.text(4), severity: query.text(5), databaseSeverity: query.text(6),
                    references: query.text(7))
            }
            var entry = OSVAffected(
                ecosystem: query.text(8) ?? "", name: dependency.name,
                ranges: StoredAffected.decodeRanges(query.text(9) ?? ""),
                severity: query.text(11))
            if let keys = query.text(10), !keys.isEmpty { entry.versionKeysText = "\n" + keys + "\n" }
            if grouped.last?.id == id {
                grouped[grouped.count - 1].entries.append(entry)
                grouped[grouped.count - 1].labels.append(entry.severity)
            } else {
                grouped.append((id, [entry], [entry.severity]))
            }
        }
        return grouped.map { ($0.id, $0.labels, evaluator.prepare($0.entries)) }
    }

    /// The advisory for a record seen in this batch, built once.
    private mutating func advisory(_ id: String) -> Advisory? {
        if let known = advisories[id] { return known }
        guard let row = rows[id] else { return nil }
        let severities = Self.pairs(row.severity).map { OSVSeverity(type: $0.0, score: $0.1) }
        let advisory = Advisory(
            id: id,
            aliases: (row.aliases ?? "").split(separator: "\n").map(String.init),
            summary: row.summary,
            modified: row.modified ?? "",
            published: row.published,
            severity: SeverityAssessment.assess(severity: severities, databaseLabels: [row.databaseSeverity]),
            references: Self.pairs(row.references).map { OSVReference(type: $0.0, url: $0.1) })
        advisories[id] = advisory
        return advisory
    }

    /// `A<tab>B` lines.
    static func pairs(_ text: String?) -> [(String, String)] {
        (text ?? "").split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }
}
