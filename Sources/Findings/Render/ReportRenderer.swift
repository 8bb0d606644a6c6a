import Support

/// Turns a report into one output format. Renderers are pure: same report, same bytes.
public protocol ReportRenderer: Sendable {
    /// The whole document, ending in a newline.
    func render(_ report: Report) -> String
}

/// The report formats (`sentinel scan --format`).
public enum OutputFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case text, json, sarif, html

    /// Parses a format name, case-insensitively.
    public init(parsing text: String) throws {
        guard let format = OutputFormat(rawValue: text.lowercased()) else {
            throw SentinelError(.invalidInput, "unknown output format '\(text)' (expected text, json, sarif or html)")
        }
        self = format
    }

    /// The renderer for this format; `color` applies to text only (the caller checks isatty),
    /// `sourceRoot` (absolute repository root) and `pathPrefix` (the scan root below it) to SARIF only.
    public func renderer(color: Bool = false, sourceRoot: String? = nil, pathPrefix: String = "") -> any ReportRenderer {
        switch self {
        case .text: TextRenderer(color: color)
        case .json: JSONRenderer()
        case .sarif: SARIFRenderer(sourceRoot: sourceRoot, pathPrefix: pathPrefix)
        case .html: HTMLRenderer()
        }
    }

    /// The format's name as `--format` takes it, e.g. `sarif`.
    public var description: String { rawValue }
}
