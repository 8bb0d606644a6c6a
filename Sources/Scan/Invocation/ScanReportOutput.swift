import Findings

/// Where a scan's report goes and how it looks: the renderer for the format (SARIF and HTML
/// relative to the repository root, HTML linking to the forge, colour only for text on a
/// terminal), and the lines that go to stderr beside it, each said once.
public struct ScanReportOutput: Sendable {
    /// `--format`.
    public var format: OutputFormat
    /// Whether the report goes to a file (`--output`) rather than stdout.
    public var toFile: Bool
    /// Whether stdout is a terminal (colour).
    public var stdoutIsTerminal: Bool
    /// `--quiet` / `--verbose`.
    public var verbosity: TextRenderer.Verbosity
    /// The repository root and the scan root's place below it (`SARIFRoot`), for SARIF and HTML.
    public var repository: (root: String, prefix: String)?
    /// The directory scanned: the source root when there is no repository.
    public var directory: String
    /// Sentinel's version, written into SARIF and HTML.
    public var version: String
    /// The environment, for the forge's file links (`SourceLinks`).
    public var environment: [String: String]

    /// An output description; see the properties.
    public init(
        format: OutputFormat, toFile: Bool, stdoutIsTerminal: Bool, verbosity: TextRenderer.Verbosity,
        repository: (root: String, prefix: String)?, directory: String, version: String, environment: [String: String]
    ) {
        self.format = format
        self.toFile = toFile
        self.stdoutIsTerminal = stdoutIsTerminal
        self.verbosity = verbosity
        self.repository = repository
        self.directory = directory
        self.version = version
        self.environment = environment
    }

    /// The renderer: a text report on stdout leaves failed tools to `errorLines`.
    public func renderer() -> any ReportRenderer {
        let color = !toFile && format == .text && stdoutIsTerminal
        switch format {
        case .text:
            var text = TextRenderer(color: color, verbosity: verbosity)
            if !toFile { text.showToolFailures = false }
            return text
        case .html:
            let base = SourceLinks.baseURL(environment: environment, prefix: repository?.prefix ?? "")
            return HTMLRenderer(sourceBaseURL: base, version: version)
        default:
            let renderer = format.renderer(
                color: color, sourceRoot: repository?.root ?? directory, pathPrefix: repository?.prefix ?? "")
            guard var sarif = renderer as? SARIFRenderer else { return renderer }
            sarif.version = version
            return sarif
        }
    }

    /// What goes to stderr after the report, without the `sentinel: ` prefix: errors (bad input
    /// only when the report is not a text report on stdout, which lists it already) and failed
    /// tools, each once.
    public func errorLines(_ outcome: ScanOutcome) -> [String] {
        let reportShowsInput = !toFile && format == .text
        var lines: [String] = []
        for notice in outcome.report.notices where notice.level == .error {
            if reportShowsInput && outcome.inputErrors.contains(notice) { continue }
            lines.append("\(notice.tool.map { "\($0): " } ?? "")\(notice.message)")
        }
        for tool in outcome.report.tools where tool.status == .failed {
            let message = tool.message ?? "failed"
            lines.append(message.hasPrefix(tool.name.rawValue + " ") ? message : "\(tool.name): \(message)")
        }
        return lines
    }
}
