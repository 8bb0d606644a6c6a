/// A request the scan sent and the target's answer: what passive checks inspect.
public struct Exchange: Sendable {
    /// What was sent.
    public var request: WebRequest
    /// What came back.
    public var response: WebResponse

    /// A pair.
    public init(request: WebRequest, response: WebResponse) {
        self.request = request
        self.response = response
    }
}
