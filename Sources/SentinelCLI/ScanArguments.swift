import ArgumentParser
import Findings
import Scan
import Support

// The typed values of `sentinel scan`: ArgumentParser parses them, lists the allowed values in
// `--help`, and reports a bad one as a usage error (status 2). The types live in the libraries,
// which parse the same words from `.sentinel.yml`; only their conformance lives here.

extension OutputFormat: ExpressibleByArgument {
    /// `--format NAME`, case-insensitively.
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }
}

extension Gate: ExpressibleByArgument {
    /// `--fail-on SEVERITY|none`.
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }

    /// The threshold's name, `none` when findings never fail the scan.
    public var defaultValueDescription: String { failOn?.rawValue ?? "none" }

    /// `none`, then the severities from `info` up.
    public static var allValueStrings: [String] { thresholdNames }
}

extension Severity: ExpressibleByArgument {
    /// `--severity LEVEL`, with the aliases scanners use (`moderate`, `error`).
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }

    /// The severities a user types; `unknown` is accepted but belongs to advisories.
    public static var allValueStrings: [String] { allCases.filter { $0 != .unknown }.map(\.rawValue) }
}

extension Confidence: ExpressibleByArgument {
    /// `--min-confidence LEVEL`, case-insensitively.
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }
}

/// `--tools native,osv`: a comma-separated list of the scanners' tool names.
struct ToolList: ExpressibleByArgument {
    let names: [ToolName]

    init?(argument: String) {
        let names = argument.split(separator: ",").map { ToolName($0.trimmingCharacters(in: .whitespaces)) }
        let known = ScannerRegistry.toolNames
        guard names.allSatisfy(known.contains) else { return nil }
        self.names = names
    }

    var defaultValueDescription: String { names.map(\.rawValue).joined(separator: ",") }

    static var allValueStrings: [String] { ScannerRegistry.toolNames.map(\.rawValue) }
}

/// `--format text|json` of `heal` and `proposals list`: typed, so a bad value is ArgumentParser's
/// usage error, in the same words as `scan --format`'s.
enum TextOrJSON: String, CaseIterable, ExpressibleByArgument {
    case text, json
}
