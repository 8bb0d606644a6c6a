/// A tool that took part in a scan, and how it went.
public struct ToolRun: Sendable, Codable, Hashable {
    /// Whether the tool produced results.
    public enum Status: String, Sendable, Codable, Hashable {
        /// Ran and its output was read.
        case succeeded
        /// Ran but failed (non-zero exit, unreadable output, timeout): the scan exits 3.
        case failed
        /// Not run (not installed, not applicable); reported as a notice only.
        case skipped
    }

    /// The tool's name as findings carry it in `tool` (`native`, `secrets`, `osv`, `bandit`, `semgrep`; see `ToolName`).
    public var name: ToolName
    /// The tool's version, when it reported one.
    public var version: String?
    /// The tool's home page (SARIF `informationUri`).
    public var informationURI: String?
    /// Whether the tool ran and its output was read, failed, or was skipped.
    public var status: Status
    /// Why it failed or was skipped.
    public var message: String?
    /// Wall time the tool took, in seconds.
    public var durationSeconds: Double?

    /// Makes a tool run record; by default one that succeeded, with no version or timing.
    public init(
        name: ToolName, version: String? = nil, informationURI: String? = nil, status: Status = .succeeded,
        message: String? = nil, durationSeconds: Double? = nil
    ) {
        self.name = name
        self.version = version
        self.informationURI = informationURI
        self.status = status
        self.message = message
        self.durationSeconds = durationSeconds
    }
}

/// Something the user should know that is not a finding: a file that failed to parse, a tool
/// that was skipped. Never affects the exit status.
public struct Notice: Sendable, Codable, Hashable {
    /// How loud the notice is.
    public enum Level: String, Sendable, Codable, Hashable {
        case info, warning, error
    }

    /// How loud the notice is; never affects the exit status.
    public var level: Level
    /// One human sentence saying what happened.
    public var message: String
    /// The file concerned, relative to the scan root, when there is one.
    public var file: String?
    /// The tool that raised it.
    public var tool: ToolName?
    /// For a notice about many files (what a scan met and does not model), the files under each
    /// thing the message counts, in its order; nil for a notice about one file or none.
    public var fileGroups: [FileGroup]?

    /// Files a notice counts under one heading (`Angular templates`: the template files).
    public struct FileGroup: Sendable, Codable, Hashable {
        /// What the files hold, as the notice's message names it.
        public var kind: String
        /// The files, relative to the scan root, sorted.
        public var files: [String]

        /// Makes a group of `files` under `kind`.
        public init(kind: String, files: [String]) {
            self.kind = kind
            self.files = files
        }
    }

    /// Makes a notice, a warning by default.
    public init(
        level: Level = .warning, message: String, file: String? = nil, tool: ToolName? = nil, fileGroups: [FileGroup]? = nil
    ) {
        self.level = level
        self.message = message
        self.file = file
        self.tool = tool
        self.fileGroups = fileGroups
    }
}

/// A file the scan was asked to cover but did not read, and why (too large, unreadable, not a
/// regular file). Reported, never silently dropped.
public struct SkippedFile: Sendable, Codable, Hashable {
    /// The path relative to the scan root (as findings give it).
    public var file: String
    /// Why, e.g. `larger than --max-file-size (6.0M > 5.0M)` or `cannot read: Permission denied`.
    public var reason: String

    /// Records that `file` (relative to the scan root) was not read, and why.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
}

/// Everything one scan produced: what renderers print and the gate judges.
public struct Report: Sendable, Codable, Hashable {
    /// The findings left after suppressions, baseline, severity filter and de-duplication.
    public var findings: [Finding]
    /// Metadata for the rules findings refer to; rules without a descriptor get a minimal one in SARIF.
    public var rules: [RuleDescriptor]
    /// Every tool that took part, with how it went.
    public var tools: [ToolRun]
    /// Things to tell the user that are not findings (parse failures, skipped tools).
    public var notices: [Notice]
    /// How many files the scan read.
    public var filesScanned: Int
    /// Wall time of the whole scan, in seconds.
    public var durationSeconds: Double
    /// Findings hidden by in-source suppressions (counted in summaries, not listed).
    public var suppressedCount: Int
    /// Findings hidden because the baseline lists them.
    public var baselinedCount: Int
    /// Findings hidden because they are below `--severity`.
    public var belowSeverityCount: Int = 0
    /// Findings hidden because their confidence is below `--min-confidence`.
    public var belowConfidenceCount: Int = 0
    /// The `--min-confidence` the report was filtered with; nil when every confidence is shown.
    public var minimumConfidence: Confidence?
    /// Files the default ignores left out of code analysis, by kind (tests, dependencies, build
    /// output); `excludedByDefault` is their total.
    public var defaultExclusions: [DefaultExclusion] = []
    /// Files selected for the scan that no scanner read, with the reason.
    public var skippedFiles: [SkippedFile]

    /// Makes a report; every part defaults to empty or zero.
    public init(
        findings: [Finding] = [], rules: [RuleDescriptor] = [], tools: [ToolRun] = [], notices: [Notice] = [],
        filesScanned: Int = 0, durationSeconds: Double = 0, suppressedCount: Int = 0, baselinedCount: Int = 0,
        skippedFiles: [SkippedFile] = []
    ) {
        self.skippedFiles = skippedFiles
        self.findings = findings
        self.rules = rules
        self.tools = tools
        self.notices = notices
        self.filesScanned = filesScanned
        self.durationSeconds = durationSeconds
        self.suppressedCount = suppressedCount
        self.baselinedCount = baselinedCount
    }
}
