import Documents
import Support

/// The `github` section of a policy file. Without `repository` the publisher is off and the
/// section yields nil, though its other keys are still checked.
enum GitHubSettingsParser {
    static let keys: Set<String> = ["repository", "api", "tokenEnv", "labels", "base"]

    static func settings(_ node: DocumentNode, reader: DocumentReader) throws -> GitHubSettings? {
        _ = try reader.mapping(node, key: "github")
        try reader.checkKeys(node, allowed: keys, at: "github")
        var settings = GitHubSettings(repository: "")
        if let value = node["repository"] {
            settings.repository = try PolicyParser.nonEmpty(value, key: "github.repository", reader: reader)
            guard isRepository(settings.repository) else {
                throw reader.fail(
                    value, "github.repository", "'\(settings.repository)' is not owner/name (letters, digits, '-', '_', '.')")
            }
        }
        if let value = node["api"] {
            settings.api = try PolicyParser.url(value, key: "github.api", reader: reader)
            while settings.api.hasSuffix("/") { settings.api.removeLast() }
        }
        if let value = node["tokenEnv"] {
            settings.tokenEnv = try PolicyParser.nonEmpty(value, key: "github.tokenEnv", reader: reader)
            guard isVariableName(settings.tokenEnv) else {
                throw reader.fail(value, "github.tokenEnv", "'\(settings.tokenEnv)' is not an environment variable name")
            }
        }
        if let value = node["labels"] {
            settings.labels = try reader.stringList(value, key: "github.labels")
        }
        if let value = node["base"] {
            let base = try PolicyParser.nonEmpty(value, key: "github.base", reader: reader)
            // What git check-ref-format refuses most often; the git CLI checks the rest.
            guard !base.hasPrefix("-"), !base.contains(".."), !base.contains(where: { $0 == " " || $0 == "~" || $0 == "^" || $0 == ":" })
            else { throw reader.fail(value, "github.base", "'\(base)' is not a branch name") }
            settings.base = base
        }
        return settings.repository.isEmpty ? nil : settings
    }

    /// GitHub's shapes: an owner of letters, digits and inner `-`; a name of letters, digits,
    /// `-`, `_`, `.` other than `.` and `..`.
    static func isRepository(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let owner = parts[0]
        let name = parts[1]
        let ownerOK =
            (1...39).contains(owner.count) && !owner.hasPrefix("-") && !owner.hasSuffix("-")
            && owner.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let nameOK =
            (1...100).contains(name.count) && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        return ownerOK && nameOK
    }

    static func isVariableName(_ text: String) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
