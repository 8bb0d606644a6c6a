import Documents
import Findings

/// Where a value found by ``ValueOrigins`` comes from, as evidence for a finding's confidence.
public enum ValueOriginClass: String, Sendable, Hashable, CaseIterable {
    /// A parameter of a public function (not `self`/`cls`, not a `_private` helper), or an
    /// attribute, item or call result of one.
    case parameter
    /// A request object (`request`, `self.request`, `req`) or part of one.
    case request
    /// Data read from a file (`.read()`, `.readline()`, `.readlines()`, `.read_text()`).
    case file
    /// Data received from a socket (`.recv()`, `.recvfrom()`).
    case socket
}

/// `confidence-from:` of a search rule: a finding is raised to `medium` confidence when the code
/// bound to `metavariable` (or the whole match when it is unbound) comes from one of `origins`,
/// unless the code or its values name one of `unlessIdentifiers` (a framework's own SQL builder).
public struct ConfidenceFrom: Sendable, Hashable {
    /// The metavariable whose value is judged, with its `$`.
    public var metavariable: String
    /// The origins that raise the confidence.
    public var origins: Set<ValueOriginClass>
    /// Identifiers (names or attributes) that keep the finding at the rule's confidence.
    public var unlessIdentifiers: Set<String>
}

extension Cursor {
    /// Parses `confidence-from: {metavariable, origins, unless-identifiers}`.
    func confidenceFrom(_ node: DocumentNode) throws -> ConfidenceFrom {
        let map = try mapping(node, "confidence-from")
        for key in map.keys where !["metavariable", "origins", "unless-identifiers"].contains(key) {
            throw RuleLoader.fail(file, map.line(key), "unknown key 'confidence-from.\(key)'")
        }
        guard let variable = map["metavariable"], let originsNode = map["origins"] else {
            throw RuleLoader.fail(file, node.line, "'confidence-from' needs 'metavariable' and 'origins'")
        }
        let name = try string(variable, "confidence-from.metavariable")
        guard name.hasPrefix("$"), name.count > 1 else {
            throw RuleLoader.fail(file, variable.line, "'confidence-from.metavariable' must be a metavariable ($X)")
        }
        let origins = try strings(originsNode, "confidence-from.origins").map { text in
            guard let origin = ValueOriginClass(rawValue: text) else {
                let known = ValueOriginClass.allCases.map(\.rawValue).joined(separator: ", ")
                throw RuleLoader.fail(file, originsNode.line, "bad origin '\(text)' (expected \(known))")
            }
            return origin
        }
        let unless = try map["unless-identifiers"].map { try strings($0, "confidence-from.unless-identifiers") } ?? []
        return ConfidenceFrom(metavariable: name, origins: Set(origins), unlessIdentifiers: Set(unless))
    }
}
