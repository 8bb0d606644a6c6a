// TEMPORARY: replaced by the policy branch's Policy/ and Risk/ on merge.
public enum RuleEffect: String, Sendable, Hashable, Codable, Comparable {
    case allow, ask, deny
    var rank: Int { self == .allow ? 0 : self == .ask ? 1 : 2 }
    public static func < (l: Self, r: Self) -> Bool { l.rank < r.rank }
}
public struct PathGlob: Sendable, Hashable, Codable {
    public let pattern: String
    public init(_ pattern: String) throws { self.pattern = pattern }
    public func matches(_ path: String) -> Bool { true }
}
public struct GitHubSettings: Sendable, Hashable {
    public var repository: String
    public var api: String
    public var tokenEnv: String
    public var labels: [String]
    public var base: String?
}
public struct PolicyRule: Sendable, Hashable {
    public var id: String
    public var effect: RuleEffect
    public var line: Int
}
public struct Policy: Sendable, Hashable {
    public var file: String?
    public var sha256: String?
    public var level: AutonomyLevel = .observer
    public var rules: [PolicyRule] = []
    public var minConfidence: Double = 0.95
    public var maxRisk: Double = 0.33
    public var repositoryDailyLimit: Int = 10
    public var classDailyLimits: [ActionClass: Int] = [:]
    public var notifyFile: String?
    public var webhook: String?
    public var github: GitHubSettings?
    public static let `default` = Policy()
    public static func load(path: String) throws -> Policy { Policy() }
    public static func parse(_ text: String, file: String) throws -> Policy { Policy() }
    public func evaluate(_ action: ActionClass, paths: [String], ecosystem: String?) -> PolicyVerdict {
        PolicyVerdict(effect: .ask, rule: "uncovered: x", reasons: [], protectedPaths: [], uncoveredPaths: paths)
    }
}
public struct PolicyVerdict: Sendable, Hashable, Codable {
    public var effect: RuleEffect
    public var rule: String
    public var reasons: [String]
    public var protectedPaths: [String]
    public var uncoveredPaths: [String]
}
public struct RiskInputs: Sendable, Hashable, Codable {
    public var action: ActionClass
    public var changedLines: Int
    public var files: [String]
    public var changedLinesCovered: Int?
    public var changedLinesTotal: Int?
    public var sensitiveAreas: [String]
    public var actorSuccessRate: Double?
    public init(
        action: ActionClass, changedLines: Int, files: [String], changedLinesCovered: Int?, changedLinesTotal: Int?,
        sensitiveAreas: [String], actorSuccessRate: Double?
    ) {
        self.action = action
        self.changedLines = changedLines
        self.files = files
        self.changedLinesCovered = changedLinesCovered
        self.changedLinesTotal = changedLinesTotal
        self.sensitiveAreas = sensitiveAreas
        self.actorSuccessRate = actorSuccessRate
    }
}
public enum RiskLevel: String, Sendable, Hashable, Codable { case low, medium, high }
public struct Risk: Sendable, Hashable, Codable {
    public var value: Double
    public var level: RiskLevel
    public var inputs: [String: Double]
    public static func score(_ inputs: RiskInputs) -> Risk { Risk(value: 0.1, level: .low, inputs: [:]) }
}
public enum SensitiveCode {
    public static func areas(changedText: [String], paths: [String], cwes: [Int]) -> [String] { [] }
}
import Git
import HTTP
public struct PullRequestDraft: Sendable, Hashable, Codable {
    public var repository: String
    public var base: String
    public var baseCommit: String
    public var branch: String
    public var title: String
    public var body: String
    public var commitMessage: String
    public var changes: [FileChange]
    public var labels: [String]
    public init(
        repository: String, base: String, baseCommit: String, branch: String, title: String, body: String,
        commitMessage: String, changes: [FileChange], labels: [String]
    ) {
        self.repository = repository
        self.base = base
        self.baseCommit = baseCommit
        self.branch = branch
        self.title = title
        self.body = body
        self.commitMessage = commitMessage
        self.changes = changes
        self.labels = labels
    }
}
public struct GitHubConfig: Sendable {
    public var apiURL: String
    public var token: String
    public init(apiURL: String = "https://api.github.com", token: String) {
        self.apiURL = apiURL
        self.token = token
    }
}
public struct GitHubRequest: Sendable, Hashable {
    public var method: String
    public var path: String
    public var body: String?
}
public struct PublishedPullRequest: Sendable, Hashable, Codable {
    public var number: Int
    public var url: String
    public var branch: String
    public var commit: String
    public var warnings: [String]
}
public enum GitHubPublisher {
    public static func plan(_ draft: PullRequestDraft) -> [GitHubRequest] { [] }
    public static func publish(
        _ draft: PullRequestDraft, config: GitHubConfig,
        send: (HTTPRequest) throws -> (HTTPResponse, [UInt8]) = HTTPClient.send
    ) throws -> PublishedPullRequest { fatalError() }
}
import Support
extension SentinelError.Code {
    public static let github = SentinelError.Code("github", exitStatus: 1)
}
