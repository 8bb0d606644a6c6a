import Web

/// A check that sends a few harmless GET requests of its own after the crawl (well-known files,
/// an `Origin` header): safe on any target, so it runs without `--active` too.
public protocol ProbeCheck: Sendable {
    /// The rules it reports.
    var rules: [WebRule] { get }
    /// Probes the crawled site through `client`; reports into `sink`.
    func probe(_ site: Crawler.Result, start: WebURL, client: WebClient, sink: FindingSink)
}
