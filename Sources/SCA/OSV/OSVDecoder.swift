import Foundation
import Support

/// Builds `OSVRecord`s from JSON or YAML text, with one-line errors that name the source.
public enum OSVDecoder {
    /// Decodes a record from JSON bytes; `source` names the file in errors.
    public static func decodeJSON(_ data: Data, source: String) throws -> OSVRecord {
        let tree: JSONValue
        do { tree = try JSONValue.parseJSON(data) } catch {
            throw SentinelError(.invalidInput, "\(source): not valid JSON")
        }
        return try record(from: tree, source: source)
    }

    /// Decodes a record from YAML text; scalars are kept as written (no timestamp conversion).
    public static func decodeYAML(_ text: String, source: String) throws -> OSVRecord {
        let tree: JSONValue
        do { tree = try JSONValue.parseYAML(text) } catch {
            let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "parse error"
            throw SentinelError(.invalidInput, "\(source): not valid YAML (\(reason))")
        }
        return try record(from: tree, source: source)
    }

    /// Builds a record from a decoded tree, checking the fields matching depends on.
    public static func record(from tree: JSONValue, source: String) throws -> OSVRecord {
        guard case .object = tree else { throw SentinelError(.invalidInput, "\(source): top level is not an object") }
        guard let id = tree["id"]?.text, !id.isEmpty else { throw SentinelError(.invalidInput, "\(source): missing \"id\"") }
        guard let modified = tree["modified"]?.text, !modified.isEmpty else {
            throw SentinelError(.invalidInput, "\(source): \(id): missing \"modified\"")
        }
        var affected = [OSVAffected]()
        for (index, entry) in (tree["affected"]?.elements ?? []).enumerated() {
            affected.append(try self.affected(entry, where: "\(source): \(id): affected[\(index)]"))
        }
        return OSVRecord(
            id: id, modified: modified,
            published: tree["published"]?.text,
            withdrawn: tree["withdrawn"]?.text,
            aliases: (tree["aliases"]?.elements ?? []).compactMap(\.text),
            summary: tree["summary"]?.text,
            details: tree["details"]?.text,
            severity: (tree["severity"]?.elements ?? []).compactMap { item in
                guard let type = item["type"]?.text, let score = item["score"]?.text else { return nil }
                return OSVSeverity(type: type, score: score)
            },
            affected: affected,
            references: (tree["references"]?.elements ?? []).compactMap { item in
                guard let url = item["url"]?.text else { return nil }
                return OSVReference(type: item["type"]?.text ?? "WEB", url: url)
            },
            databaseSeverity: tree["database_specific"]?["severity"]?.text)
    }

    private static func affected(_ entry: JSONValue, where place: String) throws -> OSVAffected {
        guard let package = entry["package"] else {
            // Entries without a package describe e.g. a git repository only; keep them inert.
            return OSVAffected(ecosystem: "", name: "", ranges: try ranges(entry, where: place))
        }
        guard let ecosystem = package["ecosystem"]?.text, let name = package["name"]?.text else {
            throw SentinelError(.invalidInput, "\(place): package without ecosystem or name")
        }
        let severity = entry["database_specific"]?["severity"]?.text ?? entry["ecosystem_specific"]?["severity"]?.text
        return OSVAffected(ecosystem: ecosystem, name: name, purl: package["purl"]?.text,
                           ranges: try ranges(entry, where: place),
                           versions: (entry["versions"]?.elements ?? []).compactMap(\.text),
                           severity: severity)
    }

    private static func ranges(_ entry: JSONValue, where place: String) throws -> [OSVRange] {
        try (entry["ranges"]?.elements ?? []).enumerated().map { index, range in
            guard let type = range["type"]?.text else {
                throw SentinelError(.invalidInput, "\(place): ranges[\(index)] has no type")
            }
            var events = [OSVEvent]()
            for event in range["events"]?.elements ?? [] {
                if let v = event["introduced"]?.text { events.append(.introduced(v)) }
                else if let v = event["fixed"]?.text { events.append(.fixed(v)) }
                else if let v = event["last_affected"]?.text { events.append(.lastAffected(v)) }
                else if let v = event["limit"]?.text { events.append(.limit(v)) }
                else { throw SentinelError(.invalidInput, "\(place): ranges[\(index)] has an event of unknown kind") }
            }
            guard events.contains(where: { if case .introduced = $0 { return true } else { return false } }) else {
                throw SentinelError(.invalidInput, "\(place): ranges[\(index)] has no \"introduced\" event")
            }
            return OSVRange(type: type, events: events)
        }
    }
}
