/// A check that reads what the scan already received (headers, cookies, bodies) and sends
/// nothing: it runs on every exchange of the crawl and of the active checks.
public protocol PassiveCheck: Sendable {
    /// The rules it reports.
    var rules: [WebRule] { get }
    /// Inspects one exchange; reports into `sink`.
    func inspect(_ exchange: Exchange, into sink: FindingSink)
}
