import Findings
import Synchronization

/// Collects the checks' findings from every thread, one per key: a header missing on forty pages
/// is one finding that says forty, not forty findings.
public final class FindingSink: Sendable {
    private let state = Mutex<(order: [String], findings: [String: Finding], counts: [String: Int])>(([], [:], [:]))

    /// An empty sink.
    public init() {}

    /// Records `finding` under `key` (by default its rule, URL, method and parameter); a repeat
    /// of a key only counts.
    public func report(_ finding: Finding, key: String? = nil) {
        let key =
            key
            ?? [finding.ruleId, finding.location.url ?? "", finding.location.method ?? "", finding.location.parameter ?? ""]
            .joined(separator: "|")
        state.withLock { state in
            if state.findings[key] == nil {
                guard state.order.count < 5000 else { return }
                state.order.append(key)
                state.findings[key] = finding
            }
            state.counts[key, default: 0] += 1
        }
    }

    /// True when something was reported under `key`.
    public func has(_ key: String) -> Bool { state.withLock { $0.findings[key] != nil } }

    /// The findings in the order first reported; grouped ones say how often they were seen.
    public var findings: [Finding] {
        state.withLock { state in
            state.order.compactMap { key in
                guard var finding = state.findings[key] else { return nil }
                let count = state.counts[key] ?? 1
                if count > 1 { finding.facts.web.occurrences = count }
                return finding
            }
        }
    }
}
