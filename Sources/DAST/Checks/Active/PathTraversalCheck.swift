import Foundation
import Findings

/// Path traversal and local file read: values that climb out of the intended directory (a
/// climb that is also an absolute path, then filter evasions, `file://`, Windows' separators)
/// and an answer holding the content of a file every Unix or Windows host has, which the
/// original answer did not. The later shapes are sent only where they can matter.
public struct PathTraversalCheck: ActiveCheck {
    static let rule = WebRule(
        id: "path-traversal", name: "Path traversal (local file read)", severity: .high, cwe: [22, 73],
        help:
            "Map input to files through an allow-list or an id; otherwise take the basename, join it to the base directory, resolve it and check it is still inside."
    )
    /// Absolute (`os.path.join` keeps it, `open` reads it) and climbing out of any base it is
    /// appended to, with or without a trailing slash.
    static let climb = "/../../../../../../../../../../etc/passwd"
    /// For filters that strip `../` once, and for a value decoded twice.
    static let evasions = [
        "....//....//....//....//....//....//etc/passwd", "..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    ]
    static let fileURL = "file:///etc/passwd"
    /// What a failed file open says (Python, Java, PHP, Node, .NET): the value names a file.
    static let fileErrors = [
        "No such file", "FileNotFoundError", "FileNotFoundException", "ENOENT", "failed to open stream",
        "Could not find file", "Errno 2", "IsADirectoryError", "Permission denied",
    ]
    static let windows = "..\\..\\..\\..\\..\\..\\..\\..\\windows\\win.ini"

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// The climb; evasions where the value is a path or the climb's answer is a failed file open; `file://`
    /// where the value is a URL; Windows' form where the server says it runs on Windows.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        // A number (an id, a count) is not a file name; a file that runs was reported as such.
        guard !point.isNumeric, !context.reported.contains(FileInclusionCheck.rule.ruleId), !Self.readsFile(context.baseline.text)
        else { return [] }
        guard let (request, answer) = try context.send(point, Self.climb) else { return [] }
        if Self.readsFile(answer.text) { return [finding(point, request, answer)] }
        var more: [String] = []
        let value = point.original
        if value.contains("/") || value.contains(".") || Self.fileErrors.contains(where: answer.text.contains) {
            more += Self.evasions
        }
        if value.contains("://") { more.append(Self.fileURL) }
        let server = (context.baseline.header("Server") ?? "") + (context.baseline.header("X-Powered-By") ?? "")
        if server.contains("IIS") || server.contains("ASP.NET") || server.contains("Win") { more.append(Self.windows) }
        for payload in more {
            guard let (request, response) = try context.send(point, payload), Self.readsFile(response.text) else { continue }
            return [finding(point, request, response)]
        }
        return []
    }

    private func finding(_ point: InsertionPoint, _ request: WebRequest, _ response: WebResponse) -> Finding {
        let needle = response.text.contains("root:") ? "root:" : "[fonts]"
        return Self.rule.finding(
            at: point, message: "Path traversal in '\(point.name)': the answer holds a system file's content",
            evidence: Evidence.of(request, response, around: needle))
    }

    /// `/etc/passwd`'s root line or `win.ini`'s sections.
    static func readsFile(_ text: String) -> Bool {
        if text.contains("[fonts]") && text.contains("[extensions]") { return true }
        guard let range = text.range(of: "root:") else { return false }
        let line = text[range.lowerBound...].prefix { $0 != "\n" && $0 != "<" }
        return line.split(separator: ":", omittingEmptySubsequences: false).count >= 6 && line.contains(":0:0:")
    }
}
