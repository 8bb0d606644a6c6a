/// Decides whether an installed version is affected by an advisory's entries for one package,
/// exactly as the OSV schema's `IsVulnerable` pseudocode says, and works out the fixes.
public enum OSVEvaluator {
    /// The outcome for one advisory and one installed version.
    public struct Outcome: Sendable, Hashable {
        /// Whether the installed version is affected.
        public var isAffected: Bool
        /// Human text for what matched: `>=1.0, <1.5`, `<=2.1`, `listed in versions`.
        public var matchedBy: String?
        /// Every `fixed` version named by the entries, sorted by the ecosystem's ordering.
        public var fixedVersions: [String]
        /// The smallest fixed version above the installed one that the advisory does not affect.
        public var smallestFix: String?
        /// Whether `smallestFix` stays on the installed version's major line.
        public var fixIsSameMajor: Bool?
        /// Ranges skipped because a version in them did not parse under the ordering.
        public var unusableRanges: Int
    }

    /// The scheme for a range of `type` in `ecosystem`; nil for `GIT` ranges, which name commits
    /// and never apply to package versions.
    static func scheme(forRange type: String, ecosystem: Ecosystem) -> (any VersionScheme)? {
        switch type {
        case "ECOSYSTEM": return ecosystem.versionScheme
        case "SEMVER": return ecosystem.name == "Go" ? GoVersionScheme() : SemVerScheme(lenient: true)
        default: return nil
        }
    }

    /// Evaluates `installed` against every entry (already filtered to one package).
    public static func evaluate(_ installed: String, entries: [OSVAffected], ecosystem: Ecosystem) -> Outcome {
        var outcome = Outcome(isAffected: false, matchedBy: nil, fixedVersions: [], smallestFix: nil,
                              fixIsSameMajor: nil, unusableRanges: 0)
        let scheme = ecosystem.versionScheme
        // Fix candidates gathered from every range, checked afterwards against all entries.
        var fixes = [String]()
        for entry in entries {
            if entry.lists(installed, scheme) && !outcome.isAffected {
                outcome.isAffected = true
                outcome.matchedBy = "listed in versions"
            }
            for range in entry.ranges {
                guard let rangeScheme = Self.scheme(forRange: range.type, ecosystem: ecosystem) else { continue }
                for case .fixed(let v) in range.events { fixes.append(v) }
                switch check(installed, range, rangeScheme) {
                case .unusable: outcome.unusableRanges += 1
                case .affected(let text):
                    if !outcome.isAffected || outcome.matchedBy == "listed in versions" {
                        outcome.isAffected = true
                        outcome.matchedBy = text
                    }
                case .notAffected: break
                }
            }
        }
        let sorted = sortVersions(fixes, scheme)
        outcome.fixedVersions = sorted
        if outcome.isAffected {
            outcome.smallestFix = sorted.first { fix in
                scheme.compare(fix, installed) == .orderedDescending
                    && !evaluateQuietly(fix, entries: entries, ecosystem: ecosystem)
            }
            if let fix = outcome.smallestFix { outcome.fixIsSameMajor = sameMajor(fix, installed, scheme) }
        }
        return outcome
    }

    /// Whether `version` is affected, ignoring fix computation (used to vet fix candidates).
    static func evaluateQuietly(_ version: String, entries: [OSVAffected], ecosystem: Ecosystem) -> Bool {
        let scheme = ecosystem.versionScheme
        for entry in entries {
            if entry.lists(version, scheme) { return true }
            for range in entry.ranges {
                guard let rangeScheme = Self.scheme(forRange: range.type, ecosystem: ecosystem) else { continue }
                if case .affected = check(version, range, rangeScheme) { return true }
            }
        }
        return false
    }

    enum RangeResult: Equatable {
        case affected(String)
        case notAffected
        case unusable
    }

    /// One range, per the schema: limits first, then the sorted timeline.
    static func check<S: VersionScheme>(_ installed: String, _ range: OSVRange, _ scheme: S) -> RangeResult {
        guard let v = scheme.parse(installed) else { return .unusable }
        typealias Bound = VersionBound<S.Version>
        var timeline = [(bound: Bound, event: OSVEvent)]()
        var limits = [Bound]()
        for event in range.events {
            let text = event.version
            let bound: Bound
            if case .introduced = event, text == "0" { bound = .low }
            else if case .limit = event, text.contains("*") { bound = .high }
            else if let parsed = scheme.parse(text) { bound = .value(parsed) }
            else { return .unusable }
            if case .limit = event { limits.append(bound) } else { timeline.append((bound, event)) }
        }
        // Before any limit (an implicit `*` limit when there are none).
        if !limits.isEmpty && !limits.contains(where: { .value(v) < $0 }) { return .notAffected }
        // A stable sort keeps the written order between events naming equal versions.
        let ordered = timeline.enumerated().sorted { a, b in
            a.element.bound != b.element.bound ? a.element.bound < b.element.bound : a.offset < b.offset
        }.map(\.element)
        var vulnerable = false
        var start: Int?
        for (index, item) in ordered.enumerated() {
            switch item.event {
            case .introduced:
                if .value(v) >= item.bound { vulnerable = true; start = index }
            case .fixed:
                if .value(v) >= item.bound { vulnerable = false }
            case .lastAffected:
                if .value(v) > item.bound { vulnerable = false }
            case .limit: break
            }
        }
        guard vulnerable, let start else { return .notAffected }
        var parts = [String]()
        if case .introduced(let intro) = ordered[start].event, intro != "0" { parts.append(">=\(intro)") }
        if let close = ordered[(start + 1)...].first(where: {
            if case .introduced = $0.event { return false } else { return true }
        }) {
            switch close.event {
            case .fixed(let f): parts.append("<\(f)")
            case .lastAffected(let l): parts.append("<=\(l)")
            default: break
            }
        }
        return .affected(parts.isEmpty ? "all versions" : parts.joined(separator: ", "))
    }

    /// Distinct versions (by precedence) in ascending order; unparseable ones are dropped.
    static func sortVersions<S: VersionScheme>(_ versions: [String], _ scheme: S) -> [String] {
        var seen = Set<String>()
        var parsed = [(S.Version, String)]()
        for text in versions {
            guard let v = scheme.parse(text), seen.insert(scheme.equalityKey(v)).inserted else { continue }
            parsed.append((v, text))
        }
        return parsed.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func sameMajor<S: VersionScheme>(_ a: String, _ b: String, _ scheme: S) -> Bool? {
        guard let x = scheme.parse(a), let y = scheme.parse(b) else { return nil }
        return scheme.majorKey(x) == scheme.majorKey(y)
    }
}

extension OSVAffected {
    /// Whether the explicit `versions` list holds `version` (equal precedence, not equal text).
    func lists(_ version: String, _ scheme: some VersionScheme) -> Bool {
        guard !versions.isEmpty else { return false }
        let key = scheme.equalityKey(of: version)
        if versionsAreKeys { return versions.contains(key) }
        return versions.contains { scheme.equalityKey(of: $0) == key }
    }
}
