import Findings
import Support
import Synchronization

/// What a check has for one insertion point: the client, the point's answer with its original
/// value (the baseline), fresh markers, the canary for out-of-band probes, and what other checks
/// already proved there. Answers are remembered per value, so two checks that send the same
/// probe (a stray quote) cost one request.
public struct ActiveContext: Sendable {
    /// Sends requests (scope, budget, session).
    public let client: WebClient
    /// The answer to the point's request with its original value.
    public let baseline: WebResponse
    /// Makes unique markers and arithmetic probes.
    public let markers: Markers
    /// Out-of-band probes: the canary's URL and the registry of tokens sent.
    public let canary: CanaryRegistry?
    /// Stored-XSS markers planted, for the re-check after the active phase.
    public let planted: PlantedMarkers
    /// Rule ids already reported at this point (a later check may defer to an earlier one).
    public var reported: Set<String> = []
    /// Told about every exchange (the error-disclosure check reads them).
    let observe: @Sendable (Exchange) -> Void
    let answers: ResponseMemo

    /// A context for one point.
    init(
        client: WebClient, baseline: WebResponse, markers: Markers, canary: CanaryRegistry?, planted: PlantedMarkers,
        answers: ResponseMemo = ResponseMemo(), observe: @escaping @Sendable (Exchange) -> Void = { _ in }
    ) {
        self.client = client
        self.baseline = baseline
        self.markers = markers
        self.canary = canary
        self.planted = planted
        self.answers = answers
        self.observe = observe
    }

    /// Sends the point's request with `value` (or recalls the answer to the same value); nil
    /// when the target did not answer. Throws `RequestBudget.Exhausted` only.
    public func send(_ point: InsertionPoint, _ value: String) throws -> (WebRequest, WebResponse)? {
        if let remembered = answers.recall(value) { return remembered }
        let request = point.request(value)
        do {
            let response = try client.send(request)
            observe(Exchange(request: request, response: response))
            answers.remember(value, (request, response))
            return (request, response)
        } catch let exhausted as RequestBudget.Exhausted {
            throw exhausted
        } catch {
            return nil
        }
    }

    /// Sends `value` afresh, never from memory (timing and repeat-to-confirm probes).
    public func sendAgain(_ point: InsertionPoint, _ value: String) throws -> (WebRequest, WebResponse)? {
        answers.forget(value)
        return try send(point, value)
    }
}

/// Answers to the values sent to one point (bounded: the first 64).
final class ResponseMemo: Sendable {
    /// Where the second fetch of the original value is kept (not a value anyone sends).
    static let againKey = "\u{0}again"
    private let answers = Mutex<[String: (WebRequest, WebResponse)]>([:])

    func recall(_ value: String) -> (WebRequest, WebResponse)? { answers.withLock { $0[value] } }

    func remember(_ value: String, _ answer: (WebRequest, WebResponse)) {
        answers.withLock { if $0.count < 64 { $0[value] = answer } }
    }

    func forget(_ value: String) { answers.withLock { _ = $0.removeValue(forKey: value) } }
}
