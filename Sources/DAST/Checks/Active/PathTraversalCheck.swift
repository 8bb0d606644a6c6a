import Foundation
import Findings

/// Path traversal and local file read: values that climb out of the intended directory (plain,
/// absolute, filter-evading, double-encoded, `file://`) and an answer holding the content of a
/// file every Unix or Windows host has, which the original answer did not.
public struct PathTraversalCheck: ActiveCheck {
    static let rule = WebRule(
        id: "path-traversal", name: "Path traversal (local file read)", severity: .high, cwe: [22, 73],
        help:
            "Map input to files through an allow-list or an id; otherwise take the basename, join it to the base directory, resolve it and check it is still inside."
    )
    static let payloads = [
        "../../../../../../../../../../etc/passwd", "/etc/passwd", "....//....//....//....//....//....//etc/passwd",
        "..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd", "file:///etc/passwd",
        "..\\..\\..\\..\\..\\..\\..\\..\\windows\\win.ini",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Tries each traversal once.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        guard !Self.readsFile(context.baseline.text) else { return [] }
        for payload in Self.payloads {
            guard let (request, response) = try context.send(point, payload), Self.readsFile(response.text) else { continue }
            let needle = response.text.contains("root:") ? "root:" : "[fonts]"
            return [
                Self.rule.finding(
                    at: point, message: "Path traversal in '\(point.name)': the answer holds a system file's content",
                    evidence: Evidence.of(request, response, around: needle))
            ]
        }
        return []
    }

    /// `/etc/passwd`'s root line or `win.ini`'s sections.
    static func readsFile(_ text: String) -> Bool {
        if text.contains("[fonts]") && text.contains("[extensions]") { return true }
        guard let range = text.range(of: "root:") else { return false }
        let line = text[range.lowerBound...].prefix { $0 != "\n" && $0 != "<" }
        return line.split(separator: ":", omittingEmptySubsequences: false).count >= 6 && line.contains(":0:0:")
    }
}
