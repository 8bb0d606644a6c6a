/// An external tool's own names for what it found (Bandit, Semgrep, Wapiti, ZAP).
public struct ExternalToolFacts: Sendable, Hashable {
    /// Bandit's test id (`B602`).
    public var testId: String?
    /// Bandit's test name (`subprocess_popen_with_shell_equals_true`).
    public var testName: String?
    /// The line Bandit reported (before the finding's location was refined).
    public var reportedLine: Int?
    /// Semgrep's check id as it ran.
    public var checkId: String?
    /// The tool's category: Semgrep's metadata category, Wapiti's vulnerability name.
    public var category: String?
    /// The Wapiti module that found it.
    public var module: String?
    /// The Wapiti report section, when not `vulnerabilities`.
    public var section: String?
    /// ZAP's alert reference.
    public var alertRef: String?
    /// ZAP's id of the HTTP message.
    public var messageId: String?
    /// ZAP's suggested solution.
    public var solution: String?

    /// External tool facts; leave out what is unknown.
    public init(
        testId: String? = nil, testName: String? = nil, reportedLine: Int? = nil, checkId: String? = nil,
        category: String? = nil, module: String? = nil, section: String? = nil, alertRef: String? = nil,
        messageId: String? = nil, solution: String? = nil
    ) {
        self.testId = testId
        self.testName = testName
        self.reportedLine = reportedLine
        self.checkId = checkId
        self.category = category
        self.module = module
        self.section = section
        self.alertRef = alertRef
        self.messageId = messageId
        self.solution = solution
    }
}
