/// What the findings pipeline recorded on a finding.
public struct PipelineFacts: Sendable, Hashable {
    /// The tools whose copies of this finding were merged into it.
    public var alsoReportedBy: [ToolName]?
    /// The rule ids of the copies merged into it.
    public var alsoReportedAs: [String]?
    /// The reason the suppressing comment gave (empty when it gave none).
    public var suppressionReason: String?
    /// The kind of comment that suppressed it (`sentinel`, `nosec`, `nosemgrep`).
    public var suppressionKind: SuppressionKind?

    /// Pipeline facts; leave out what is unknown.
    public init(
        alsoReportedBy: [ToolName]? = nil, alsoReportedAs: [String]? = nil, suppressionReason: String? = nil,
        suppressionKind: SuppressionKind? = nil
    ) {
        self.alsoReportedBy = alsoReportedBy
        self.alsoReportedAs = alsoReportedAs
        self.suppressionReason = suppressionReason
        self.suppressionKind = suppressionKind
    }

    /// Records a merged copy's tool and rule id, each once (`nil` leaves that list as it is).
    public mutating func noteCopy(tool: ToolName?, ruleId: String?) {
        if let tool { Self.append(tool, to: &alsoReportedBy) }
        if let ruleId { Self.append(ruleId, to: &alsoReportedAs) }
    }

    private static func append<Item: Equatable & CustomStringConvertible>(_ value: Item, to list: inout [Item]?) {
        // An empty item never survives a round trip through the comma-joined encoding.
        var items = (list ?? []).filter { !$0.description.isEmpty }
        if !items.contains(value) { items.append(value) }
        list = items
    }
}
