import SourcePositions

/// Where a finding is: a region of a source file (1-based lines and columns, the file relative
/// to the scan root) or, for DAST, a request: URL, method and parameter name.
public struct Location: Sendable, Codable, Hashable {
    /// File path relative to the scan root, `/`-separated; `nil` for web findings.
    public var file: String?
    /// First line of the region, 1-based.
    public var startLine: Int?
    /// First column of the region, 1-based, counted in Unicode code points (SARIF's
    /// `unicodeCodePoints`); `SourceColumn.column(utf8Offset:in:)` converts from a byte offset.
    public var startColumn: Int?
    /// Last line of the region (inclusive).
    public var endLine: Int?
    /// Column just past the region on `endLine` (SARIF's convention).
    public var endColumn: Int?
    /// The request URL of a web finding.
    public var url: String?
    /// The HTTP method of a web finding (`GET`, `POST`, ...).
    public var method: String?
    /// The request parameter (query, form field, header or cookie) a web finding is about.
    public var parameter: String?

    /// A source region. `endLine` defaults to `startLine`.
    public init(file: String, startLine: Int, startColumn: Int? = nil, endLine: Int? = nil, endColumn: Int? = nil) {
        self.file = file
        self.startLine = startLine
        self.startColumn = startColumn
        self.endLine = endLine ?? startLine
        self.endColumn = endColumn
    }

    /// A whole file (e.g. a lockfile finding with no line).
    public init(file: String) {
        self.file = file
    }

    /// A web location (DAST).
    public init(url: String, method: String? = nil, parameter: String? = nil) {
        self.url = url
        self.method = method
        self.parameter = parameter
    }

    /// `path` as findings store it: relative to `root`, `/`-separated, without `./` or empty
    /// segments. Tools report `./app/x.py`, `/workspace/app/x.py` or `app//x.py` for the same file;
    /// fingerprints and baselines need one spelling. Paths outside `root` keep their (cleaned) form.
    public static func relativePath(_ path: String, root: String? = nil) -> String {
        func segments(_ text: String) -> [Substring] {
            text.split(separator: "/").filter { $0 != "." }
        }
        var parts = segments(path)
        let absolute = path.hasPrefix("/")
        if let root, absolute == root.hasPrefix("/") {
            let rootParts = segments(root)
            if parts.starts(with: rootParts) {
                parts.removeFirst(rootParts.count)
                return parts.isEmpty ? "." : parts.joined(separator: "/")
            }
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// True for DAST locations, which have a URL instead of a file.
    public var isWeb: Bool { file == nil && url != nil }

    /// The file path, or the URL for web findings; what reports group by.
    public var artifact: String { file ?? url ?? "" }

    /// The lines this location covers, when it has any.
    public var lineRange: ClosedRange<Int>? {
        guard let start = startLine, start >= 1 else { return nil }
        return start...max(start, endLine ?? start)
    }

    /// `path:line:col` (or `METHOD url [param]`), as diagnostics print it.
    public var displayString: String {
        if let file {
            var text = file
            if let startLine { text += ":\(startLine)" }
            if startLine != nil, let startColumn { text += ":\(startColumn)" }
            return text
        }
        var text = [method, url].compactMap { $0 }.joined(separator: " ")
        if let parameter { text += " [\(parameter)]" }
        return text
    }
}
