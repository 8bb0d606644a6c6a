import Digest
import Findings
import Foundation
import Support

/// An error signal `heal` works on, whatever format it came in: failing tests, a traceback, a
/// scan finding, a vulnerable dependency or an error log line.
public struct Signal: Sendable, Hashable, Codable {
    /// What kind of problem this is; it decides which actors apply.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Tests fail (pytest output, JUnit XML).
        case testFailure = "test-failure"
        /// A program raised (a Python traceback, an error log line with an exception).
        case exception
        /// A SAST or secrets finding from a scan report.
        case finding
        /// A vulnerable dependency (an SCA finding).
        case vulnerableDependency = "vulnerable-dependency"
        /// An error log line without an exception.
        case logError = "log-error"
    }

    /// One place the signal points at.
    public struct Location: Sendable, Hashable, Codable {
        /// The file, as the signal names it (relative to the repository when it can be).
        public var file: String
        /// 1-based line, when known.
        public var line: Int?
        /// The function or test the line is in, when known.
        public var function: String?

        /// A location in `file`.
        public init(file: String, line: Int? = nil, function: String? = nil) {
            self.file = file
            self.line = line
            self.function = function
        }
    }

    /// The package side of a vulnerable-dependency signal.
    public struct Dependency: Sendable, Hashable, Codable {
        /// Ecosystem as OSV names it (`PyPI`).
        public var ecosystem: String
        /// Package name as the lockfile spells it.
        public var package: String
        /// The installed (pinned) version.
        public var installed: String
        /// Versions that fix the advisory, as the advisory lists them.
        public var fixedVersions: [String]
        /// The manifest or lockfile it was found in, when known.
        public var manifest: String?
        /// Advisory ids (first is the one reported).
        public var advisories: [String]

        /// A vulnerable `package` at `installed`.
        public init(
            ecosystem: String, package: String, installed: String, fixedVersions: [String], manifest: String? = nil,
            advisories: [String] = []
        ) {
            self.ecosystem = ecosystem
            self.package = package
            self.installed = installed
            self.fixedVersions = fixedVersions
            self.manifest = manifest
            self.advisories = advisories
        }
    }

    /// What kind of problem this is.
    public var kind: Kind
    /// The format it was read from (`pytest`, `junit`, `traceback`, `sarif`, `sentinel-json`, `json-log`).
    public var source: String
    /// One line saying what is wrong.
    public var message: String
    /// Where it points, most relevant first (for a traceback: the innermost frame first).
    public var locations: [Location]
    /// Test ids that fail (`tests/test_x.py::test_y`).
    public var failingTests: [String]
    /// The exception type, e.g. `ZeroDivisionError`.
    public var exceptionType: String?
    /// The innermost frames, innermost first: `file:function`.
    public var topFrames: [String]
    /// For findings: the rule id, severity and the finding's own fingerprint.
    public var ruleId: String?
    /// For findings and dependencies: severity as the report gave it.
    public var severity: Severity?
    /// The finding's fingerprint in its report, when it had one.
    public var findingFingerprint: String?
    /// For vulnerable dependencies: the package, versions and advisories.
    public var dependency: Dependency?
    /// For findings from Sentinel's own report: the scanner that raised it (`Finding.tool`); nil
    /// when the report does not say (another tool's SARIF). Not encoded: `evidence.json` keeps
    /// its shape.
    public var tool: ToolName?

    /// A signal with the given parts; `fingerprint` is derived from them.
    public init(
        kind: Kind, source: String, message: String, locations: [Location] = [], failingTests: [String] = [],
        exceptionType: String? = nil, topFrames: [String] = [], ruleId: String? = nil, severity: Severity? = nil,
        findingFingerprint: String? = nil, dependency: Dependency? = nil, tool: ToolName? = nil
    ) {
        self.kind = kind
        self.source = source
        self.message = message
        self.locations = locations
        self.failingTests = failingTests
        self.exceptionType = exceptionType
        self.topFrames = topFrames
        self.ruleId = ruleId
        self.severity = severity
        self.findingFingerprint = findingFingerprint
        self.dependency = dependency
        self.tool = tool
    }

    private enum CodingKeys: String, CodingKey {
        case kind, source, message, locations, failingTests, exceptionType, topFrames, ruleId, severity
        case findingFingerprint, dependency
    }

    /// Stable identity of the problem: the same failure seen twice (another run, other line
    /// numbers, other wording of values) has the same fingerprint. Built from the kind and
    /// whatever identifies it: failing test ids, exception type and frames, rule and finding,
    /// or package and advisory.
    public var fingerprint: String {
        var parts = [kind.rawValue]
        switch kind {
        case .testFailure:
            parts += failingTests.sorted()
            if failingTests.isEmpty { parts += [exceptionType ?? ""] + topFrames }
        case .exception, .logError:
            parts += [exceptionType ?? ""] + topFrames
            if topFrames.isEmpty { parts.append(Self.shape(of: message)) }
        case .finding:
            parts += [ruleId ?? "", findingFingerprint ?? locations.first.map { "\($0.file)" } ?? ""]
        case .vulnerableDependency:
            if let dependency {
                parts += [dependency.ecosystem, dependency.package.lowercased(), dependency.installed]
                parts += dependency.advisories.prefix(1)
            }
        }
        return String(SHA256.hex(Array(parts.joined(separator: "\u{1f}").utf8)).prefix(16))
    }

    /// The message with numbers and quoted values folded, so `index 7` and `index 9` agree.
    package static func shape(of message: String) -> String {
        var out = ""
        var lastWasDigit = false
        for character in message {
            if character.isNumber {
                if !lastWasDigit { out.append("#") }
                lastWasDigit = true
            } else {
                out.append(character)
                lastWasDigit = false
            }
        }
        return out
    }
}
