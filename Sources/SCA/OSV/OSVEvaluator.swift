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
        /// Matched only by a range with no upper bound (no fix, no last affected version) while the
        /// advisory enumerates the versions it affects and this one is not among them: the open
        /// range is a bound nobody wrote, not evidence that this (later) release is affected.
        public var onlyByOpenRangeBeyondListed = false
    }

    /// Evaluates `installed` against every entry (already filtered to one package).
    public static func evaluate(_ installed: String, entries: [OSVAffected], ecosystem: Ecosystem) -> Outcome {
        ecosystem.makeVersionCache().evaluate(installed, entries: entries)
    }

    /// How a range of `type` is ordered in `ecosystem`: `.ecosystem` when the ecosystem's own scheme
    /// applies, `.semver` for a SEMVER range in an ecosystem whose scheme is not SemVer, nil for
    /// `GIT` ranges, which name commits and never apply to package versions.
    enum RangeOrdering { case ecosystem, semver }

    static func ordering(forRange type: String, ecosystem: Ecosystem) -> RangeOrdering? {
        switch type {
        case "ECOSYSTEM": return .ecosystem
        case "SEMVER":
            let semverFamily: Set<String> = ["Go", "crates.io", "npm", "SwiftURL", "Hex", "Pub"]
            let base = ecosystem.name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ecosystem.name
            return semverFamily.contains(base) ? .ecosystem : .semver
        default: return nil
        }
    }

    enum RangeResult: Equatable {
        case affected(String)
        case notAffected
        case unusable
    }

    /// One range, per the schema: limits first, then the timeline sorted by version.
    static func check<V: Comparable>(_ v: V, _ range: OSVRange, parse: (String) -> V?) -> RangeResult {
        PreparedRange(range, parse: parse)?.check(v) ?? .unusable
    }
}

/// A range with its versions parsed and its events sorted once, to be checked against many
/// versions (the installed one, then each fix candidate).
struct PreparedRange<V: Comparable> {
    typealias Bound = VersionBound<V>
    private var limits = [Bound]()
    private var ordered = [(bound: Bound, event: OSVEvent)]()

    /// Nil when a version in the range does not parse under the ordering.
    init?(_ range: OSVRange, parse: (String) -> V?) {
        var timeline = [(bound: Bound, event: OSVEvent)]()
        for event in range.events {
            let text = event.version
            let bound: Bound
            if case .introduced = event, text == "0" {
                bound = .low
            } else if case .limit = event, text.contains("*") {
                bound = .high
            } else if let parsed = parse(text) {
                bound = .value(parsed)
            } else {
                return nil
            }
            if case .limit = event { limits.append(bound) } else { timeline.append((bound, event)) }
        }
        // A stable sort keeps the written order between events naming equal versions.
        ordered = timeline.enumerated().sorted { a, b in
            a.element.bound != b.element.bound ? a.element.bound < b.element.bound : a.offset < b.offset
        }.map(\.element)
    }

    func check(_ v: V) -> OSVEvaluator.RangeResult {
        let value = Bound.value(v)
        // Only versions before some limit count (an implicit `*` limit when there is none).
        if !limits.isEmpty && !limits.contains(where: { value < $0 }) { return .notAffected }
        var vulnerable = false
        var start: Int?
        for (index, item) in ordered.enumerated() {
            switch item.event {
            case .introduced:
                if value >= item.bound { vulnerable = true; start = index }
            case .fixed:
                if value >= item.bound { vulnerable = false }
            case .lastAffected:
                if value > item.bound { vulnerable = false }
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
}

extension Ecosystem {
    /// An evaluator with a parse cache for this ecosystem's scheme; reuse one across lookups to
    /// parse each distinct version string once. Each scheme is named concretely here so that the
    /// optimiser specialises the generic evaluation code for it (through an existential it would
    /// run unspecialised, several times slower).
    func makeVersionCache() -> VersionEvaluator {
        func wrap<S: VersionScheme>(_ cache: VersionCache<S>) -> VersionEvaluator {
            VersionEvaluator(
                prepare: { PreparedEntries(entries: $0, ranges: $0.map { $0.ranges.map(cache.prepare) }) },
                evaluate: { installed, prepared in
                    guard let ready = prepared as? PreparedEntries<S> else {
                        return OSVEvaluator.Outcome(
                            isAffected: false, matchedBy: nil, fixedVersions: [], smallestFix: nil,
                            fixIsSameMajor: nil, unusableRanges: 0)
                    }
                    return cache.evaluate(installed, ready)
                })
        }
        let base = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
        switch base {
        case "PyPI": return wrap(VersionCache(PEP440Scheme(), ecosystem: self))
        case "Go": return wrap(VersionCache(GoVersionScheme(), ecosystem: self))
        case "RubyGems": return wrap(VersionCache(RubyGemsScheme(), ecosystem: self))
        default:
            if let semver = versionScheme as? SemVerScheme { return wrap(VersionCache(semver, ecosystem: self)) }
            return wrap(VersionCache(DottedNumericScheme(), ecosystem: self))
        }
    }
}

/// The evaluator bound to one ecosystem's scheme, hiding the scheme's `Version` type: entries are
/// prepared once (versions parsed, events sorted) and then evaluated against many versions.
struct VersionEvaluator {
    /// Returns an opaque prepared form of the entries, for `evaluate`.
    let prepare: ([OSVAffected]) -> AnyObject
    let evaluate: (String, AnyObject) -> OSVEvaluator.Outcome

    func evaluate(_ installed: String, entries: [OSVAffected]) -> OSVEvaluator.Outcome {
        evaluate(installed, prepare(entries))
    }
}

/// Entries with their ranges prepared for one scheme.
final class PreparedEntries<S: VersionScheme> {
    let entries: [OSVAffected]
    let ranges: [[VersionCache<S>.Prepared]]
    init(entries: [OSVAffected], ranges: [[VersionCache<S>.Prepared]]) {
        self.entries = entries
        self.ranges = ranges
    }
}

/// Parsed versions of one scheme, memoised: advisories repeat the same event versions across
/// ranges, entries and fix candidates, and parsing dominates evaluation time.
final class VersionCache<S: VersionScheme> {
    let scheme: S
    let ecosystem: Ecosystem
    private var parsed = [String: S.Version]()
    private var invalid = Set<String>()
    private var keys = [String: String]()

    init(_ scheme: S, ecosystem: Ecosystem) {
        self.scheme = scheme
        self.ecosystem = ecosystem
    }

    func parse(_ text: String) -> S.Version? {
        if let v = parsed[text] { return v }
        if invalid.contains(text) { return nil }
        guard let v = scheme.parse(text) else { invalid.insert(text); return nil }
        if parsed.count > 50_000 { parsed.removeAll(keepingCapacity: true) }
        parsed[text] = v
        return v
    }

    func equalityKey(_ text: String) -> String {
        if let key = keys[text] { return key }
        let key = parse(text).map(scheme.equalityKey) ?? text
        if keys.count > 50_000 { keys.removeAll(keepingCapacity: true) }
        keys[text] = key
        return key
    }

    /// Whether `entry`'s explicit `versions` list holds `version` (equal precedence, not equal text).
    func lists(_ entry: OSVAffected, _ version: String) -> Bool {
        if let text = entry.versionKeysText {
            // Newline-separated keys: compare each in place rather than splitting into strings.
            let key = equalityKey(version).utf8
            return text.utf8.split(separator: 0x0A).contains { $0.elementsEqual(key) }
        }
        guard !entry.versions.isEmpty else { return false }
        let key = equalityKey(version)
        if entry.versionsAreKeys { return entry.versions.contains(key) }
        return entry.versions.contains { equalityKey($0) == key }
    }

    /// A range ready for repeated checks.
    enum Prepared {
        case skip
        case unusable
        case ecosystem(PreparedRange<S.Version>)
        case semver(PreparedRange<SemVer>)
    }

    func prepare(_ range: OSVRange) -> Prepared {
        switch OSVEvaluator.ordering(forRange: range.type, ecosystem: ecosystem) {
        case nil: return .skip
        case .ecosystem?: return PreparedRange(range, parse: parse).map { .ecosystem($0) } ?? .unusable
        case .semver?:
            let semver = SemVerScheme(lenient: true)
            return PreparedRange(range, parse: semver.parse).map { .semver($0) } ?? .unusable
        }
    }

    func check(_ version: String, _ range: Prepared) -> OSVEvaluator.RangeResult? {
        switch range {
        case .skip: return nil
        case .unusable: return .unusable
        case .ecosystem(let r): return parse(version).map(r.check) ?? .unusable
        case .semver(let r): return SemVerScheme(lenient: true).parse(version).map(r.check) ?? .unusable
        }
    }

    func evaluate(_ installed: String, entries: [OSVAffected]) -> OSVEvaluator.Outcome {
        evaluate(installed, PreparedEntries(entries: entries, ranges: entries.map { $0.ranges.map(prepare) }))
    }

    func evaluate(_ installed: String, _ ready: PreparedEntries<S>) -> OSVEvaluator.Outcome {
        var outcome = OSVEvaluator.Outcome(
            isAffected: false, matchedBy: nil, fixedVersions: [], smallestFix: nil,
            fixIsSameMajor: nil, unusableRanges: 0)
        let entries = ready.entries, prepared = ready.ranges
        var fixes = [String]()
        for (entry, ranges) in zip(entries, prepared) {
            if !outcome.isAffected && lists(entry, installed) {
                outcome.isAffected = true
                outcome.matchedBy = "listed in versions"
            }
            for (range, ranged) in zip(entry.ranges, ranges) {
                guard let result = check(installed, ranged) else { continue }
                for case .fixed(let v) in range.events { fixes.append(v) }
                switch result {
                case .unusable: outcome.unusableRanges += 1
                case .affected(let text):
                    // A range's interval says more than "listed in versions"; keep the first one.
                    if !outcome.isAffected || outcome.matchedBy == "listed in versions" {
                        outcome.isAffected = true
                        outcome.matchedBy = text
                    }
                case .notAffected: break
                }
            }
        }
        if outcome.isAffected, let matched = outcome.matchedBy, matched != "listed in versions", !matched.contains("<"),
            entries.contains(where: { !$0.versions.isEmpty || $0.versionKeysText != nil }),
            !entries.contains(where: { lists($0, installed) })
        {
            outcome.onlyByOpenRangeBeyondListed = true
        }
        guard outcome.isAffected, let current = parse(installed) else { return outcome }
        // Fix data is only worked out for affected versions: most checks are negative.
        outcome.fixedVersions = sortedDistinct(fixes)
        outcome.smallestFix = outcome.fixedVersions.first { fix in
            guard let f = parse(fix), f > current else { return false }
            return !isAffected(fix, entries: entries, prepared: prepared)
        }
        if let fix = outcome.smallestFix, let f = parse(fix) {
            outcome.fixIsSameMajor = scheme.majorKey(f) == scheme.majorKey(current)
        }
        return outcome
    }

    /// Whether `version` is affected at all (used to vet fix candidates).
    func isAffected(_ version: String, entries: [OSVAffected], prepared: [[Prepared]]) -> Bool {
        for (entry, ranges) in zip(entries, prepared) {
            if lists(entry, version) { return true }
            for ready in ranges {
                if case .affected? = check(version, ready) { return true }
            }
        }
        return false
    }

    /// Distinct versions (by precedence) in ascending order; unparseable ones are dropped.
    func sortedDistinct(_ versions: [String]) -> [String] {
        let items = versions.compactMap { text in parse(text).map { ($0, text) } }.sorted { $0.0 < $1.0 }
        var out = [(S.Version, String)]()
        for item in items where out.last.map({ $0.0 != item.0 }) ?? true { out.append(item) }
        return out.map(\.1)
    }
}
