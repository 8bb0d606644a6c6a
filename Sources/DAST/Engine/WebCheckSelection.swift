import Foundation
import Support

/// Which checks a scan runs (`--dast-checks sqli,xss-reflected` or `--dast-checks -csrf-token-missing`),
/// by rule id as reports name them without the `dast.` prefix: a check runs when one of its rules
/// is chosen, and only chosen rules are reported. Empty: every check.
public struct WebCheckSelection: Sendable, Codable, Hashable {
    /// Rules asked for by name; empty means every rule.
    public private(set) var chosen: Set<String> = []
    /// Rules left out (`-id`).
    public private(set) var leftOut: Set<String> = []

    /// Every check.
    public init() {}

    /// Parses comma-separated ids; `-id` leaves one out of the rest. Throws
    /// `SentinelError(.invalidInput)` naming an id no check reports.
    public init(parsing items: [String]) throws {
        let known = Set(WebRules.all.map(\.id))
        for item in items.flatMap({ $0.split(separator: ",") }) {
            let word = item.trimmingCharacters(in: .whitespaces)
            let leaves = word.hasPrefix("-")
            let id = leaves ? String(word.dropFirst()) : word
            let bare = id.hasPrefix("dast.") ? String(id.dropFirst(5)) : id
            guard known.contains(bare) else {
                throw SentinelError(
                    .invalidInput, "--dast-checks: no check reports '\(id)' (known: \(known.sorted().joined(separator: ", ")))")
            }
            if leaves { leftOut.insert(bare) } else { chosen.insert(bare) }
        }
    }

    /// True when a finding of `rule` is reported.
    public func reports(_ rule: String) -> Bool {
        let id = rule.hasPrefix("dast.") ? String(rule.dropFirst(5)) : rule
        return (chosen.isEmpty || chosen.contains(id)) && !leftOut.contains(id)
    }

    /// True when a check reporting `rules` runs.
    func runs(_ rules: [WebRule]) -> Bool { rules.contains { reports($0.id) } }
}
