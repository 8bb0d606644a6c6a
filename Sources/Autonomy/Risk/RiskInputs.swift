/// What `Risk.score` looks at for one candidate change.
public struct RiskInputs: Sendable, Hashable, Codable {
    /// The kind of change.
    public var action: ActionClass
    /// Lines added plus lines removed.
    public var changedLines: Int
    /// The changed files, repository-relative.
    public var files: [String]
    /// Of the changed lines, how many the tests executed; nil when unknown.
    public var changedLinesCovered: Int?
    /// The changed lines coverage could count (the denominator of `changedLinesCovered`); nil when unknown.
    public var changedLinesTotal: Int?
    /// Sensitive areas the change touches (`SensitiveCode.areas`), e.g. `["auth", "crypto"]`.
    public var sensitiveAreas: [String]
    /// Verified candidates over all candidates of this actor in memory; nil without history.
    public var actorSuccessRate: Double?

    /// Inputs for one change; what is not known stays nil.
    public init(
        action: ActionClass, changedLines: Int, files: [String], changedLinesCovered: Int? = nil,
        changedLinesTotal: Int? = nil, sensitiveAreas: [String] = [], actorSuccessRate: Double? = nil
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
