import Findings

/// A check that sends payloads into one insertion point and reports what they prove. Runs only
/// with `--active`. A check throws only `RequestBudget.Exhausted` (the scan ends); a request
/// that gets no answer is a negative.
public protocol ActiveCheck: Sendable {
    /// The rules it reports.
    var rules: [WebRule] { get }
    /// Tests `point`; returns what it proved (usually nothing).
    func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding]
}
