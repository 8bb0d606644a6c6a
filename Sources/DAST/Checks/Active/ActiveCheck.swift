import Findings

/// A check that sends payloads into one insertion point and reports what they prove. Runs only
/// with `--active`. A check throws only `RequestBudget.Exhausted` (the scan ends); a request
/// that gets no answer is a negative.
public protocol ActiveCheck: Sendable {
    /// The rules it reports.
    var rules: [WebRule] { get }
    /// Tests `point`; returns what it proved (usually nothing).
    func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding]
    /// True when it tests points whose value is bytes, not text (`InsertionPoint.isBinary`, a
    /// serialised object); text payloads appended to bytes prove nothing and are not sent.
    var readsBytes: Bool { get }
}

extension ActiveCheck {
    /// Text checks, by default.
    public var readsBytes: Bool { false }
}
