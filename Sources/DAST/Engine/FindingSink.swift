import Findings
import Synchronization

/// Collects the checks' findings from every thread, one per key: a header missing on forty pages
/// is one finding that says forty, not forty findings, and names the pages it was seen on.
public final class FindingSink: Sendable {
    private struct State {
        var order: [String] = []
        var findings: [String: Finding] = [:]
        var counts: [String: Int] = [:]
        /// The distinct URLs each key was seen on.
        var urls: [String: Set<String>] = [:]
        /// The rank of the report that stands for each key.
        var ranks: [String: Int] = [:]
    }
    private let state = Mutex(State())
    /// URLs named in one finding's evidence at most; the count says how many there were.
    static let namedURLs = 10
    /// Distinct URLs counted per finding at most.
    static let countedURLs = 1000

    /// An empty sink.
    public init() {}

    /// Records `finding` under `key` (by default its rule, URL, method and parameter); a repeat
    /// of a key only counts, and adds its URL to those the finding was seen on. A fact of the
    /// whole application (a CORS policy, a debug mode) is keyed by origin: one finding per app.
    /// `rank` orders the reports of one key: the lowest stands for the group (a page the site
    /// serves before a not-found page at a path of the scanner's own), then the first URL in order.
    public func report(_ finding: Finding, key: String? = nil, rank: Int = 0) {
        let key =
            key
            ?? [finding.ruleId, finding.location.url ?? "", finding.location.method ?? "", finding.location.parameter ?? ""]
            .joined(separator: "|")
        state.withLock { state in
            if let kept = state.findings[key] {
                // Whichever thread saw it first, the same report stands for the group.
                let keptRank = state.ranks[key] ?? 0
                if rank < keptRank || (rank == keptRank && (finding.location.url ?? "") < (kept.location.url ?? "")) {
                    state.findings[key] = finding
                    state.ranks[key] = rank
                }
            } else {
                guard state.order.count < 5000 else { return }
                state.order.append(key)
                state.findings[key] = finding
                state.ranks[key] = rank
            }
            state.counts[key, default: 0] += 1
            if let url = finding.location.url, state.urls[key, default: []].count < Self.countedURLs {
                state.urls[key, default: []].insert(url)
            }
        }
    }

    /// True when something was reported under `key`.
    public func has(_ key: String) -> Bool { state.withLock { $0.findings[key] != nil } }

    /// The findings in the order first reported; grouped ones say how often they were seen, and
    /// on which URLs when on more than one.
    public var findings: [Finding] {
        state.withLock { state in
            state.order.compactMap { key in
                guard var finding = state.findings[key] else { return nil }
                let count = state.counts[key] ?? 1
                if count > 1 { finding.facts.web.occurrences = count }
                let urls = (state.urls[key] ?? []).sorted()
                if urls.count > 1 {
                    let counted = urls.count >= Self.countedURLs ? "\(Self.countedURLs) or more" : String(urls.count)
                    let named = urls.prefix(Self.namedURLs).joined(separator: "\n  ")
                    let more = urls.count > Self.namedURLs ? "\n  ..." : ""
                    finding.evidence = (finding.evidence.map { $0 + "\n" } ?? "") + "Seen on \(counted) URLs:\n  \(named)\(more)"
                }
                return finding
            }
        }
    }
}
