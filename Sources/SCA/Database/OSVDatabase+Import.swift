import Documents
import Foundation
import Store
import Support

/// What an import did.
public struct ImportReport: Sendable, Hashable {
    /// Advisory files read (zip entries count one each).
    public var files = 0
    /// Records new to the database.
    public var inserted = 0
    /// Records that replaced an older `modified` version of themselves.
    public var updated = 0
    /// Records already present with the same `modified` and content.
    public var unchanged = 0
    /// Records ignored because the database holds a newer `modified`.
    public var olderIgnored = 0
    /// Records a full export no longer holds, removed from its ecosystem (`importExport`).
    public var removed = 0
    /// Malformed files and records, each naming its source; the import went on without them.
    public var problems = [ImportProblem]()

    /// Makes an empty summary: nothing imported, ignored or skipped.
    public init() {}
}

/// One file or record an import skipped, and why.
public struct ImportProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file (`dir/PYSEC-1.yaml`) or zip entry (`all.zip!PYSEC-1.json`).
    public var source: String
    /// Why it was skipped.
    public var message: String
    /// Why it was skipped.
    public var description: String { message }
}

extension OSVDatabase {
    /// Imports OSV records from `.json`/`.yaml`/`.yml` files, directories of them (recursively) and
    /// `.zip` exports, in one transaction: on any failure of the database itself nothing changes.
    /// Malformed records are reported in the result and skipped; a damaged or out-of-bounds archive
    /// (`ZipLimits`) throws and changes nothing. A record replaces a stored one unless the stored
    /// one's `modified` is newer, so re-importing the same data changes nothing; a stored
    /// `modified` later than tomorrow orders nothing (a hostile copy dated 2999 would otherwise win
    /// for good).
    ///
    /// With `feed`, the feed state of its ecosystem (or, when it names none, of every ecosystem
    /// the import touched) is written in the same transaction.
    public func `import`(paths: [String], feed: FeedState? = nil) throws -> ImportReport {
        try importRecords(paths: paths, failAfter: nil, feed: feed)
    }

    /// Imports one downloaded `.zip` export, all or nothing: a damaged archive or entry (bad
    /// central directory, CRC mismatch, truncation) throws and leaves the database as it was;
    /// malformed records inside an intact archive are reported and skipped as usual. Records
    /// name `label` (the URL) as their source rather than the temporary file.
    ///
    /// The export is the whole of `feed.ecosystem`'s data: its records
    /// replace the stored ones whatever their `modified` says, and records of that ecosystem it
    /// no longer holds are removed. So whatever an earlier source served (a mirror's record
    /// withdrawn or dated 2999, records it made up), an update from the real source restores.
    public func importExport(zip path: String, label: String, feed: FeedState) throws -> ImportReport {
        try importRecords(paths: [path], failAfter: nil, feed: feed, strictArchive: label)
    }

    /// `import(paths:)` with a fault injected after `failAfter` records, for atomicity tests.
    func importRecords(
        paths: [String], failAfter: Int?, feed: FeedState? = nil,
        strictArchive label: String? = nil
    ) throws -> ImportReport {
        let files = try Self.collectFiles(paths)
        // A file the operator named may be a link (her choice); one found by walking a directory
        // she named is the directory's, and another user may have placed a link there.
        let named = Set(paths)
        cachedLookup = nil
        // Root holds a read lock on the database while each scan's analysis reads it
        // (`OSVReadHold`): an import waits for the scans that run, up to 15 minutes.
        connection.waitForLocks(seconds: 900)
        var writer = try RecordWriter(connection, replacing: label != nil)
        return try connection.transaction {
            var report = ImportReport()
            var seen = 0
            func store(_ record: OSVRecord, raw: [UInt8], source: String, report: inout ImportReport) throws {
                if let failAfter, seen >= failAfter {
                    throw SentinelError(.io, "\(source): injected failure after \(failAfter) records")
                }
                seen += 1
                try writer.store(record, raw: raw, source: source, into: &report)
            }
            for file in files {
                if file.lowercased().hasSuffix(".zip") {
                    try importZip(file, followLinks: named.contains(file), label: label, report: &report, store: store)
                } else {
                    report.files += 1
                    let data: Data
                    do {
                        data = try BoundedFile.read(
                            file, limit: ZipLimits.osvExports.maxEntryBytes, followLinks: named.contains(file))
                    } catch let error as SentinelError {
                        report.problems.append(ImportProblem(source: file, message: error.message))
                        continue
                    }
                    try decodeAndStore(Array(data), name: file, report: &report, store: store)
                }
            }
            if label != nil, let ecosystem = feed?.ecosystem, !ecosystem.isEmpty {
                report.removed = try writer.removeAbsent(from: ecosystem)
            }
            if var feed {
                let ecosystems =
                    feed.ecosystem.isEmpty
                    ? Set(writer.ecosystems.map(FeedState.exportName)).sorted() : [feed.ecosystem]
                for ecosystem in ecosystems {
                    feed.ecosystem = ecosystem
                    try writeFeed(feed)
                }
            }
            return report
        }
    }

    /// A damaged or out-of-bounds archive throws. A damaged entry throws with a `label` (a
    /// downloaded export); without, it is a problem of that entry and the import goes on.
    private func importZip(
        _ file: String, followLinks: Bool, label: String?, report: inout ImportReport,
        store: (OSVRecord, [UInt8], String, inout ImportReport) throws -> Void
    ) throws {
        let display = label ?? file
        let data: Data
        do {
            data = try BoundedFile.read(file, limit: ZipLimits.osvExports.maxArchiveBytes, followLinks: followLinks)
        } catch let error as SentinelError {
            if label != nil { throw error }
            report.problems.append(ImportProblem(source: file, message: error.message))
            return
        }
        let archive = try ZipArchive(path: display, bytes: Array(data))
        for entry in archive.entries where Self.isAdvisoryName(entry.name) {
            report.files += 1
            let name = "\(display)!\(entry.shownName)"
            let bytes: [UInt8]
            do {
                bytes = try archive.contents(of: entry)
            } catch let error as SentinelError where label == nil && (error.code == .invalidInput || error.code == .unsupported) {
                report.problems.append(ImportProblem(source: name, message: error.message))
                continue
            }
            try decodeAndStore(bytes, name: name, report: &report, store: store)
        }
    }

    /// Decodes one file's bytes; decoding problems are reported, storage failures are thrown.
    private func decodeAndStore(
        _ bytes: [UInt8], name: String, report: inout ImportReport,
        store: (OSVRecord, [UInt8], String, inout ImportReport) throws -> Void
    ) throws {
        let record: OSVRecord
        var raw = bytes
        do {
            if name.lowercased().hasSuffix(".json") {
                record = try OSVDecoder.record(from: try OSVDecoder.parseJSON(bytes, source: name), source: name)
            } else {
                let tree = try OSVDecoder.parseYAML(bytes, source: name)
                record = try OSVDecoder.record(from: tree, source: name)
                raw = JSONWriter.bytes(tree, style: .compact, sortKeys: true)
            }
            try Self.checkStorable(record, source: name)
        } catch let error as SentinelError {
            report.problems.append(ImportProblem(source: name, message: error.message))
            return
        }
        try store(record, raw, name, &report)
    }

    private static func checkStorable(_ record: OSVRecord, source: String) throws {
        for entry in record.affected {
            for version in entry.versions + entry.ranges.flatMap({ $0.events.map(\.version) })
            where !StoredAffected.isStorable(version) {
                throw SentinelError(.invalidInput, "\(source): \(record.id): version \"\(version)\" holds a tab or newline")
            }
        }
    }

    static func isAdvisoryName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return !name.hasSuffix("/") && (lower.hasSuffix(".json") || lower.hasSuffix(".yaml") || lower.hasSuffix(".yml"))
    }

    /// Expands directories (recursively, sorted) and checks that every named path exists.
    static func collectFiles(_ paths: [String]) throws -> [String] {
        var files = [String]()
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw SentinelError(.invalidInput, "\(path): no such file or directory")
            }
            if !isDirectory.boolValue {
                guard isAdvisoryName(path) || path.lowercased().hasSuffix(".zip") else {
                    throw SentinelError(.invalidInput, "\(path): not a .json, .yaml, .yml or .zip file")
                }
                files.append(path)
                continue
            }
            let base = URL(fileURLWithPath: path)
            var found = [String]()
            let enumerator = fm.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey],
                options: [.skipsHiddenFiles])
            while let url = enumerator?.nextObject() as? URL {
                let name = url.lastPathComponent
                guard isAdvisoryName(name) || name.lowercased().hasSuffix(".zip") else { continue }
                let kind = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
                // A link is listed, not followed: reading it refuses it and names it as a problem.
                if kind?.isRegularFile == true || kind?.isSymbolicLink == true { found.append(url.path) }
            }
            files += found.sorted()
        }
        return files
    }
}

/// The prepared statements of one import and the newer-wins rule.
struct RecordWriter {
    /// How far past now a `modified` date may lie and still order records (clock skew).
    static let skew: Double = 86_400
    private let connection: Database
    /// A full export: its records replace stored ones whatever their dates.
    private let replacing: Bool
    /// `modified` keys later than this (now plus `skew`) are not trusted to order records.
    private let horizon: String
    private let find: Statement
    private let insert: Statement
    private let update: Statement
    private let deleteAffected: Statement
    private let insertAffected: Statement
    private let deleteAliases: Statement
    private let insertAlias: Statement
    /// Ecosystems of the records stored (new, updated or unchanged) by this writer.
    private(set) var ecosystems = Set<String>()
    /// Ids of the records this writer was given.
    private var ids = Set<String>()

    init(_ connection: Database, replacing: Bool = false, now: Date = Date()) throws {
        self.connection = connection
        self.replacing = replacing
        horizon = OSVTimestamp.sortKey(of: now.addingTimeInterval(Self.skew))
        find = try connection.prepare("SELECT rid, modified_key, raw FROM records WHERE id = ?")
        let columns =
            "id, modified, modified_key, published, withdrawn, summary, aliases, severity, db_severity, refs, source, raw, raw_size"
        insert = try connection.prepare("INSERT INTO records(\(columns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
        update = try connection.prepare(
            """
            UPDATE records SET id = ?1, modified = ?2, modified_key = ?3, published = ?4, withdrawn = ?5, summary = ?6,
                aliases = ?7, severity = ?8, db_severity = ?9, refs = ?10, source = ?11, raw = ?12, raw_size = ?13
            WHERE rid = ?14
            """)
        deleteAffected = try connection.prepare("DELETE FROM affected WHERE rid = ?")
        insertAffected = try connection.prepare(
            "INSERT INTO affected(rid, ecosystem, name, ranges, versions, severity) VALUES (?, ?, ?, ?, ?, ?)")
        deleteAliases = try connection.prepare("DELETE FROM aliases WHERE rid = ?")
        insertAlias = try connection.prepare("INSERT INTO aliases(rid, alias) VALUES (?, ?)")
    }

    mutating func store(_ record: OSVRecord, raw: [UInt8], source: String, into report: inout ImportReport) throws {
        let key = record.modifiedKey
        for entry in record.affected where !entry.ecosystem.isEmpty { ecosystems.insert(entry.ecosystem) }
        ids.insert(record.id)
        let blob = try Compression.compress(raw)
        find.reset()
        find.bind(1, record.id)
        var rid: Int64?
        if try find.step() {
            let storedKey = find.text(1) ?? ""
            // The same date with other content is not "unchanged": a copy that kept the date
            // and changed the record must not stay for good.
            if key == storedKey && find.blob(2) == blob {
                report.unchanged += 1
                return
            }
            if !replacing && key < storedKey && storedKey <= horizon {
                report.olderIgnored += 1
                return
            }
            rid = find.int(0)
        }
        let statement = rid == nil ? insert : update
        statement.reset()
        statement.bind(1, record.id)
        statement.bind(2, record.modified)
        statement.bind(3, key)
        statement.bind(4, record.published)
        statement.bind(5, record.withdrawn)
        statement.bind(6, record.summary)
        statement.bind(7, record.aliases.joined(separator: "\n"))
        statement.bind(8, record.severity.map { "\($0.type)\t\($0.score)" }.joined(separator: "\n"))
        statement.bind(9, record.databaseSeverity)
        statement.bind(10, record.references.map { "\($0.type)\t\($0.url)" }.joined(separator: "\n"))
        statement.bind(11, source)
        statement.bind(12, blob: blob)
        statement.bind(13, Int64(raw.count))
        if let rid {
            statement.bind(14, rid)
            try statement.step()
            deleteAffected.reset()
            deleteAffected.bind(1, rid)
            try deleteAffected.step()
            deleteAliases.reset()
            deleteAliases.bind(1, rid)
            try deleteAliases.step()
            report.updated += 1
        } else {
            try statement.step()
            report.inserted += 1
        }
        let recordID = rid ?? connection.lastInsertRowID
        for alias in Set(record.aliases) where alias != record.id {
            insertAlias.reset()
            insertAlias.bind(1, recordID)
            insertAlias.bind(2, alias)
            try insertAlias.step()
        }
        for entry in record.affected where !entry.name.isEmpty {
            let ecosystem = Ecosystem(entry.ecosystem)
            let scheme = ecosystem.versionScheme
            insertAffected.reset()
            insertAffected.bind(1, recordID)
            insertAffected.bind(2, entry.ecosystem)
            insertAffected.bind(3, ecosystem.normalisedPackageName(entry.name))
            insertAffected.bind(4, StoredAffected.encodeRanges(entry.ranges))
            insertAffected.bind(5, entry.versions.map { scheme.equalityKey(of: $0) }.joined(separator: "\n"))
            insertAffected.bind(6, entry.severity)
            try insertAffected.step()
        }
    }
}

extension RecordWriter {
    /// Removes `ecosystem` (and `ecosystem:suffix`) from the records this writer was not given:
    /// their affected entries there go, and a record left with none goes too. Returns how many
    /// records lost the ecosystem.
    func removeAbsent(from ecosystem: String) throws -> Int {
        let select = try connection.prepare(
            """
            SELECT DISTINCT r.rid, r.id FROM records r JOIN affected a ON a.rid = r.rid
            WHERE a.ecosystem = ?1 OR substr(a.ecosystem, 1, length(?1) + 1) = ?1 || ':'
            """)
        select.bind(1, ecosystem)
        var absent = [Int64]()
        while try select.step() {
            if !ids.contains(select.text(1) ?? "") { absent.append(select.int(0)) }
        }
        let deleteEntries = try connection.prepare(
            "DELETE FROM affected WHERE rid = ?1 AND (ecosystem = ?2 OR substr(ecosystem, 1, length(?2) + 1) = ?2 || ':')")
        let deleteBare = try connection.prepare(
            "DELETE FROM records WHERE rid = ?1 AND NOT EXISTS (SELECT 1 FROM affected WHERE rid = ?1)")
        for rid in absent {
            deleteEntries.reset()
            deleteEntries.bind(1, rid)
            deleteEntries.bind(2, ecosystem)
            try deleteEntries.step()
            deleteBare.reset()
            deleteBare.bind(1, rid)
            try deleteBare.step()
        }
        return absent.count
    }
}
