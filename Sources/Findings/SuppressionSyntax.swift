/// How a tool's check ids compare: the ids a suppression comment names against the ids a
/// finding goes by, and a finding's check id against the ids rule metadata maps.
public enum CheckIDMatching: Sendable, Hashable {
    /// Equal, ignoring case (Bandit's `B602`).
    case caseInsensitive
    /// Equal ignoring case, or one is a dotted suffix of the other (Semgrep's `eval-detected`
    /// for `python.lang.security.audit.eval-detected.eval-detected`).
    case dottedSuffix

    /// Whether ids `a` and `b` name the same check.
    public func matches(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.lowercased(), b.lowercased())
        switch self {
        case .caseInsensitive: return x == y
        case .dottedSuffix: return x == y || x.hasSuffix("." + y) || y.hasSuffix("." + x)
        }
    }
}

/// Which syntax a suppression comment used: `sentinel` (built in) or a tool's marker
/// (`nosec`, `nosemgrep`). Reports carry it as `suppressionKind`, a plain string.
public struct SuppressionKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The marker as written in the comment (`sentinel`, `nosec`).
    public let rawValue: String

    /// The kind named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `# sentinel: ignore[ID, ...] reason`, Sentinel's own: it hides any tool's findings.
    public static let sentinel = SuppressionKind(rawValue: "sentinel")

    /// The marker as written.
    public var description: String { rawValue }
}

/// An external tool's in-source suppression comment, declared by its scanner and handed to
/// `FindingsPipeline` as data: `# MARKER` alone hides every finding on its line; `# MARKER ID, ID`
/// (or `MARKER: ID`) hides the findings that go by one of those ids of `tool`'s checks, whichever
/// tool reported them (see `SuppressionDirective.covers`).
public struct SuppressionSyntax: Sendable, Hashable {
    /// The word after the comment sign (`nosec` in `# nosec B602`).
    public var marker: String
    /// The tool whose check ids the comment names (`bandit`).
    public var tool: ToolName
    /// How a named id matches the finding's ids of `tool`'s checks.
    public var matching: CheckIDMatching
    /// Whether a comment alone on its line also covers the line below.
    public var coversNextLine: Bool
    /// Whether the finding's recorded test id and name (`ExternalToolFacts.testId`/`testName`,
    /// which survive a merge into the native finding) are ids of `tool`'s checks.
    public var namesRecordedTest: Bool

    /// A syntax; see the properties.
    public init(
        marker: String, tool: ToolName, matching: CheckIDMatching = .caseInsensitive, coversNextLine: Bool = false,
        namesRecordedTest: Bool = false
    ) {
        self.marker = marker
        self.tool = tool
        self.matching = matching
        self.coversNextLine = coversNextLine
        self.namesRecordedTest = namesRecordedTest
    }

    /// What findings record as `suppressionKind` when this syntax hid them: the marker.
    public var kind: SuppressionKind { SuppressionKind(rawValue: marker) }
}
