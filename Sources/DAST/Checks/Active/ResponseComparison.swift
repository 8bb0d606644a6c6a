/// Same-or-different judgements for the boolean checks, calibrated by how stable the page is:
/// the original value is fetched twice, and "the same" means as alike as those two are.
struct ResponseComparison: Sendable {
    /// The baseline.
    let baseline: WebResponse
    /// How alike two fetches of the baseline were (1 for a static page).
    let stability: Double
    /// Values to remove from bodies before comparing (the page may echo them).
    let injected: [String]

    /// Fetches the original again; nil when the page changes by itself (it cannot tell true from
    /// false) or did not answer.
    static func calibrate(_ point: InsertionPoint, context: ActiveContext, injected: [String]) throws -> ResponseComparison? {
        let again: WebResponse
        if let remembered = context.answers.recall(ResponseMemo.againKey) {
            again = remembered.1
        } else {
            guard let (request, answer) = try context.sendAgain(point, point.original) else { return nil }
            context.answers.remember(ResponseMemo.againKey, (request, answer))
            again = answer
        }
        let stability = ResponseSimilarity.ratio(context.baseline, again)
        guard stability >= 0.98 else { return nil }
        // The original is removed too: a page that echoes the value shows it in the baseline only.
        return ResponseComparison(baseline: context.baseline, stability: stability, injected: injected + [point.original])
    }

    /// As alike as the baseline is to itself.
    func same(_ a: WebResponse, _ b: WebResponse) -> Bool {
        ResponseSimilarity.ratio(a, b, removing: injected) >= stability - 0.01
    }

    /// Clearly less alike than the baseline is to itself.
    func differs(_ a: WebResponse, _ b: WebResponse) -> Bool {
        ResponseSimilarity.ratio(a, b, removing: injected) < stability - 0.02
    }
}
