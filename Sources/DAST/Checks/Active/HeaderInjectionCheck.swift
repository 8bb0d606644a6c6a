import Findings

/// CRLF injection / HTTP response splitting: a carriage return and line feed followed by a
/// header of the scan's own comes back as a separate response header.
public struct HeaderInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "crlf-injection", name: "CRLF injection (HTTP response splitting)", severity: .medium, cwe: [113, 93],
        help: "Refuse CR and LF in anything copied into a response header (most frameworks do; raw header writes do not).")
    static let header = "X-Sentinel-Injected"

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Where the value is copied into a response header: CRLF, then LF alone.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let original = point.original
        let inBaseline = original.count >= 3 && context.baseline.headers.contains { $0.value.contains(original) }
        guard try inBaseline || context.reflectedInHeader(point) else { return [] }
        let marker = context.markers.marker()
        for separator in ["\r\n", "\n"] {
            guard let (request, response) = try context.send(point, point.original + separator + "\(Self.header): \(marker)"),
                response.headers.contains(where: { $0.name.lowercased() == Self.header.lowercased() && $0.value.contains(marker) })
            else { continue }
            return [
                Self.rule.finding(
                    at: point, message: "CRLF injection in '\(point.name)': input starts a new response header",
                    evidence: "Request: \(request.summary)\nResponse header: \(Self.header): \(marker)")
            ]
        }
        return []
    }
}
