#if canImport(Glibc)
    import Glibc
#endif
import Digest
import Documents
import DocumentsYAML
import Foundation
import Support

/// Reads `.sentinel/policy.yml` (YAML or JSON) and validates every key: each problem is one
/// `SentinelError(.invalidInput, "FILE:LINE: KEY: problem")`. The file comes from the
/// repository being healed, which may be hostile: it is read bounded, never through a link,
/// and anything unknown is refused rather than ignored.
enum PolicyParser {
    /// The largest policy file read.
    static let maxBytes = 1 << 20

    static let rootKeys: Set<String> = ["version", "level", "rules", "protected", "actor", "limits", "notify", "github"]

    /// Who wrote a policy: the operator (`--policy FILE`) or the repository it governs.
    enum Origin {
        case operatorFile
        case repository
    }

    /// Keys only the operator's policy may set: they name files, hosts or credentials.
    static let operatorOnlyKeys: [(section: String, key: String)] = [
        ("notify", "file"), ("notify", "webhook"), ("github", "repository"), ("github", "api"), ("github", "tokenEnv"),
    ]

    static func load(path: String, origin: Origin = .operatorFile) throws -> Policy {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: maxBytes, followLinks: false)
        } catch let error as SentinelError where error.errno?.rawValue == ENOENT {
            throw SentinelError(.invalidInput, "\(path): not found", errno: error.errno)
        }
        let bytes = Array(data)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw SentinelError(.invalidInput, "\(path): not UTF-8 text")
        }
        return try parse(bytes, file: path, origin: origin)
    }

    /// Parses the bytes of a policy file; its hash is of exactly these bytes (a BOM included).
    static func parse(_ bytes: [UInt8], file: String, origin: Origin = .operatorFile) throws -> Policy {
        var policy = Policy.default
        policy.file = file
        policy.sha256 = SHA256.hex(bytes)
        let documents: [DocumentNode]
        do {
            // Every scalar stays text; each key reads its own type, so `level: yes` is an
            // unknown level rather than a boolean.
            documents = try YAML.documents(bytes, file: file, scalars: .strings)
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, syntaxError(error.message, file: file))
        }
        let reader = DocumentReader(source: file)
        guard documents.count <= 1 else { throw reader.fail(documents[1], "", "a policy is one YAML document") }
        guard let root = documents.first, root.value != .null, root.string != "" else { return policy }
        guard root.isObject else { throw reader.fail(root, "", "a policy must be a mapping") }
        try reader.checkKeys(root, allowed: rootKeys, at: "")
        if origin == .repository {
            for (section, key) in operatorOnlyKeys {
                guard let node = root[section]?[key] else { continue }
                throw reader.fail(
                    node, "\(section).\(key)",
                    "a repository's policy may not name files, hosts or credentials; the operator sets it (--policy FILE)")
            }
        }
        if let node = root["version"] {
            let version = try reader.scalarText(node, key: "version")
            guard version == "1" else { throw reader.fail(node, "version", "'\(version)' is not supported (only 1)") }
        }
        if let node = root["level"] {
            let text = try reader.string(node, key: "level") ?? ""
            guard let level = AutonomyLevel(rawValue: text) else {
                throw reader.fail(node, "level", "'\(text)' is not one of \(names(AutonomyLevel.allCases))")
            }
            policy.level = level
        }
        if let node = root["rules"] {
            policy.rules = try PolicyRuleParser.rules(node, reader: reader)
        }
        if let node = root["protected"] {
            policy.protected += try globs(node, key: "protected", reader: reader)
        }
        if let node = root["actor"] {
            try actor(node, into: &policy, reader: reader)
        }
        if let node = root["limits"] {
            try limits(node, into: &policy, reader: reader)
        }
        if let node = root["notify"] {
            _ = try reader.mapping(node, key: "notify")
            try reader.checkKeys(node, allowed: ["file", "webhook"], at: "notify")
            if let file = node["file"] {
                let name = try nonEmpty(file, key: "notify.file", reader: reader)
                // The policy comes from the repository (hostile input): its notification file is a
                // name inside the state directory, never a path that leads anywhere else.
                let parts = name.split(separator: "/", omittingEmptySubsequences: false)
                guard !name.hasPrefix("/"), !parts.contains(".."), !parts.contains("") else {
                    throw reader.fail(
                        file, "notify.file", "must be a relative path inside the state directory, without '..'")
                }
                policy.notifyFile = name
            }
            if let webhook = node["webhook"] {
                policy.webhook = try url(webhook, key: "notify.webhook", reader: reader)
            }
        }
        if let node = root["github"] {
            policy.github = try GitHubSettingsParser.settings(node, reader: reader)
        }
        return policy
    }

    private static func actor(_ node: DocumentNode, into policy: inout Policy, reader: DocumentReader) throws {
        _ = try reader.mapping(node, key: "actor")
        try reader.checkKeys(node, allowed: ["minConfidence", "maxRisk"], at: "actor")
        if let value = node["minConfidence"] {
            policy.minConfidence = try unitInterval(value, key: "actor.minConfidence", reader: reader)
        }
        if let value = node["maxRisk"] {
            if let text = value.string, let level = RiskLevel(rawValue: text) {
                policy.maxRisk = level.ceiling
            } else if let text = value.string, Double(text) == nil {
                throw reader.fail(value, "actor.maxRisk", "'\(text)' is not one of low, medium, high or a number in [0, 1]")
            } else {
                policy.maxRisk = try unitInterval(value, key: "actor.maxRisk", reader: reader)
            }
        }
    }

    private static func limits(_ node: DocumentNode, into policy: inout Policy, reader: DocumentReader) throws {
        _ = try reader.mapping(node, key: "limits")
        try reader.checkKeys(node, allowed: ["repository", "classes"], at: "limits")
        if let value = node["repository"] {
            policy.repositoryDailyLimit = try count(value, key: "limits.repository", reader: reader)
        }
        if let value = node["classes"] {
            for member in try reader.mapping(value, key: "limits.classes") {
                let key = "limits.classes.\(member.key)"
                guard let action = ActionClass(rawValue: member.key) else {
                    throw reader.fail(member.line, key, unknownClass(member.key))
                }
                policy.classDailyLimits[action] = try count(member.value, key: key, reader: reader)
            }
        }
    }

    // MARK: - Shared value readers

    /// The reader's `FILE:LINE: invalid YAML: problem`, said for either format. Yams reports a
    /// key written twice without a line (0) and over several lines; the line of the mapping is
    /// in its text (`in line N, column M`), so the message is made one line again with it.
    static func syntaxError(_ message: String, file: String) -> String {
        let firstLine = String(message.prefix { $0 != "\n" }).replacing("invalid YAML: ", with: "not valid YAML or JSON: ")
            .replacing("Parser: ", with: "")
        // A bare `*` starts an alias in YAML, and Yams says only what an alias name lacks.
        let hint = firstLine.contains("alphabetic or numeric character") ? " (write the wildcard as \"*\")" : ""
        let unplaced = "\(file):0: "
        guard firstLine.hasPrefix(unplaced), let line = message.firstMatch(of: /in line (\d+), column/)?.1 else {
            return firstLine + hint
        }
        return "\(file):\(line): " + firstLine.dropFirst(unplaced.count) + hint
    }

    static func names<T: RawRepresentable<String>>(_ values: [T]) -> String {
        values.map(\.rawValue).joined(separator: ", ")
    }

    static func unknownClass(_ text: String) -> String {
        "'\(text)' is not an action class (\(names(ActionClass.allCases)))"
    }

    static func nonEmpty(_ node: DocumentNode, key: String, reader: DocumentReader) throws -> String {
        guard let text = try reader.string(node, key: key), !text.isEmpty else {
            throw reader.fail(node, key, "must be a non-empty string")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw reader.fail(node, key, "must not hold control characters")
        }
        return text
    }

    static func unitInterval(_ node: DocumentNode, key: String, reader: DocumentReader) throws -> Double {
        let value = try reader.number(node, key: key)
        guard (0...1).contains(value) else { throw reader.fail(node, key, "\(node.scalarText ?? "?") is not in [0, 1]") }
        return value
    }

    static func count(_ node: DocumentNode, key: String, reader: DocumentReader) throws -> Int {
        guard let text = node.string, let value = Int(text) else { throw reader.fail(node, key, "must be an integer") }
        guard value >= 0 else { throw reader.fail(node, key, "\(value) is below 0") }
        return value
    }

    static func url(_ node: DocumentNode, key: String, reader: DocumentReader) throws -> String {
        let text = try nonEmpty(node, key: key, reader: reader)
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty
        else { throw reader.fail(node, key, "'\(text)' is not an http(s) URL") }
        return text
    }

    static func globs(_ node: DocumentNode, key: String, reader: DocumentReader) throws -> [PathGlob] {
        let patterns = try reader.stringList(node, key: key)
        return try patterns.enumerated().map { index, pattern in
            do {
                return try PathGlob(pattern)
            } catch let error as SentinelError {
                throw reader.fail(node.elements[index], "\(key)[\(index)]", error.message)
            }
        }
    }
}
