/// The name of a scanner, one per engine (DESIGN §3): what findings carry in `tool`, what
/// `--tools` and `.sentinel.yml` select, and what every report lists. Encoded as the plain string.
public struct ToolName: RawRepresentable, Hashable, Sendable, Codable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The name as reports spell it (`bandit`).
    public let rawValue: String

    /// The tool named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The tool named `name`.
    public init(_ name: String) {
        self.rawValue = name
    }

    /// The tool named by a literal (`"bandit"`).
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Decodes the plain string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Orders by name.
    public static func < (a: ToolName, b: ToolName) -> Bool { a.rawValue < b.rawValue }

    /// The name as written.
    public var description: String { rawValue }

    /// The native rule engine (SAST).
    public static let native: ToolName = "native"
    /// The native secrets detector.
    public static let secrets: ToolName = "secrets"
    /// The native dependency scanner (OSV).
    public static let osv: ToolName = "osv"
    /// The Bandit adapter.
    public static let bandit: ToolName = "bandit"
    /// The Semgrep adapter.
    public static let semgrep: ToolName = "semgrep"
    /// The native web scanner (DAST).
    public static let dast: ToolName = "dast"
    /// OWASP ZAP, driven over its API.
    public static let zap: ToolName = "zap"
    /// The Wapiti adapter.
    public static let wapiti: ToolName = "wapiti"
    /// The engines built into Sentinel; every other tool is an external adapter.
    public static let builtIn: Set<ToolName> = [native, secrets, osv, dast]
}
