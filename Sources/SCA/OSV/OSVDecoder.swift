import Documents
import DocumentsYAML
import Foundation
import Support

/// Builds `OSVRecord`s from JSON or YAML text, with one-line errors that name the source.
public enum OSVDecoder {
    /// Decodes a record from JSON bytes; `source` names the file in errors.
    public static func decodeJSON(_ data: Data, source: String) throws -> OSVRecord {
        try record(from: try parseJSON([UInt8](data), source: source), source: source)
    }

    /// Decodes a record from YAML text; scalars are kept as written (no timestamp conversion).
    public static func decodeYAML(_ text: String, source: String) throws -> OSVRecord {
        try record(from: try parseYAML(Array(text.utf8), source: source), source: source)
    }

    /// The tree of a JSON record, with the one-line error the importer reports.
    static func parseJSON(_ bytes: [UInt8], source: String) throws -> DocumentNode {
        do { return try JSON.parse(bytes, file: source) } catch {
            throw SentinelError(.invalidInput, "\(source): not valid JSON")
        }
    }

    /// The tree of a YAML record (its first document; an empty file is a null tree). Plain
    /// scalars stay text, so unquoted timestamps and `introduced: 0` are kept as written.
    static func parseYAML(_ bytes: [UInt8], source: String) throws -> DocumentNode {
        do {
            return try YAML.documents(bytes, file: source, scalars: .text).first
                ?? DocumentNode(.null, line: 1, column: 1)
        } catch let error as SentinelError {
            // Documents says `FILE:LINE: problem`; keep the importer's `FILE: not valid YAML (...)`.
            let reason = error.message.dropFirst(source.count + 1).replacing("invalid YAML: ", with: "")
            throw SentinelError(.invalidInput, "\(source): not valid YAML (line \(reason))")
        }
    }

    /// Builds a record from a decoded tree, checking the fields matching depends on.
    public static func record(from tree: DocumentNode, source: String) throws -> OSVRecord {
        guard tree.isObject else { throw SentinelError(.invalidInput, "\(source): top level is not an object") }
        guard let id = tree["id"]?.scalarText, !id.isEmpty else { throw SentinelError(.invalidInput, "\(source): missing \"id\"") }
        guard let modified = tree["modified"]?.scalarText, !modified.isEmpty else {
            throw SentinelError(.invalidInput, "\(source): \(id): missing \"modified\"")
        }
        var affected = [OSVAffected]()
        for (index, entry) in (tree["affected"]?.elements ?? []).enumerated() {
            affected.append(try self.affected(entry, where: "\(source): \(id): affected[\(index)]"))
        }
        return OSVRecord(
            id: id, modified: modified,
            published: tree["published"]?.scalarText,
            withdrawn: tree["withdrawn"]?.scalarText,
            aliases: (tree["aliases"]?.elements ?? []).compactMap(\.scalarText),
            summary: tree["summary"]?.scalarText,
            details: tree["details"]?.scalarText,
            severity: (tree["severity"]?.elements ?? []).compactMap { item in
                guard let type = item["type"]?.scalarText, let score = item["score"]?.scalarText else { return nil }
                return OSVSeverity(type: type, score: score)
            },
            affected: affected,
            references: (tree["references"]?.elements ?? []).compactMap { item in
                guard let url = item["url"]?.scalarText else { return nil }
                return OSVReference(type: item["type"]?.scalarText ?? "WEB", url: url)
            },
            databaseSeverity: tree["database_specific"]?["severity"]?.scalarText)
    }

    private static func affected(_ entry: DocumentNode, where place: String) throws -> OSVAffected {
        guard let package = entry["package"] else {
            // Entries without a package describe e.g. a git repository only; keep them inert.
            return OSVAffected(ecosystem: "", name: "", ranges: try ranges(entry, where: place))
        }
        guard let ecosystem = package["ecosystem"]?.scalarText, let name = package["name"]?.scalarText else {
            throw SentinelError(.invalidInput, "\(place): package without ecosystem or name")
        }
        let severity = entry["database_specific"]?["severity"]?.scalarText ?? entry["ecosystem_specific"]?["severity"]?.scalarText
        return OSVAffected(
            ecosystem: ecosystem, name: name, purl: package["purl"]?.scalarText,
            ranges: try ranges(entry, where: place),
            versions: (entry["versions"]?.elements ?? []).compactMap(\.scalarText),
            severity: severity)
    }

    private static func ranges(_ entry: DocumentNode, where place: String) throws -> [OSVRange] {
        try (entry["ranges"]?.elements ?? []).enumerated().map { index, range in
            guard let type = range["type"]?.scalarText else {
                throw SentinelError(.invalidInput, "\(place): ranges[\(index)] has no type")
            }
            var events = [OSVEvent]()
            for event in range["events"]?.elements ?? [] {
                if let v = event["introduced"]?.scalarText {
                    events.append(.introduced(v))
                } else if let v = event["fixed"]?.scalarText {
                    events.append(.fixed(v))
                } else if let v = event["last_affected"]?.scalarText {
                    events.append(.lastAffected(v))
                } else if let v = event["limit"]?.scalarText {
                    events.append(.limit(v))
                } else {
                    throw SentinelError(.invalidInput, "\(place): ranges[\(index)] has an event of unknown kind")
                }
            }
            guard events.contains(where: { if case .introduced = $0 { return true } else { return false } }) else {
                throw SentinelError(.invalidInput, "\(place): ranges[\(index)] has no \"introduced\" event")
            }
            return OSVRange(type: type, events: events)
        }
    }
}
