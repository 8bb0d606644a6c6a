/// The names of the scanners, one per engine (DESIGN §3): what findings carry in `tool`, what
/// `--tools` and `.sentinel.yml` select, and what every report lists.
public enum ToolName {
    /// The native rule engine (SAST).
    public static let native = "native"
    /// The native secrets detector.
    public static let secrets = "secrets"
    /// The native dependency scanner (OSV).
    public static let osv = "osv"
    /// The Bandit adapter.
    public static let bandit = "bandit"
    /// The Semgrep adapter.
    public static let semgrep = "semgrep"
    /// The native web scanner (DAST).
    public static let dast = "dast"
    /// OWASP ZAP, driven over its API.
    public static let zap = "zap"
    /// The Wapiti adapter.
    public static let wapiti = "wapiti"
    /// The engines built into Sentinel; every other tool is an external adapter.
    public static let builtIn: Set<String> = [native, secrets, osv, dast]
}

/// Which native rules check what a Bandit test or a Semgrep rule checks (from the rules'
/// `metadata.bandit` / `metadata.semgrep`). The pipeline uses it to fold an adapter's copy of an
/// issue into the native finding, and to let `# nosec B307`, `# nosemgrep: id` and
/// `# sentinel: ignore[python.eval-used]` hide the issue whichever tool reported it.
public struct RuleEquivalence: Sendable, Hashable {
    /// Bandit test id (`B307`, upper case) → native rule ids.
    public private(set) var nativeByBandit: [String: [String]] = [:]
    /// Semgrep rule id (as the rule metadata spells it) → native rule ids.
    public private(set) var nativeBySemgrep: [String: [String]] = [:]
    private var banditByNative: [String: [String]] = [:]
    private var semgrepByNative: [String: [String]] = [:]

    /// An empty table: no adapter check maps to a native rule.
    public init() {}

    /// Records that native rule `nativeRule` covers `banditIds` and `semgrepIds`.
    public mutating func add(nativeRule: String, banditIds: [String], semgrepIds: [String]) {
        for id in banditIds.map({ $0.uppercased() }) where !id.isEmpty {
            if !(nativeByBandit[id] ?? []).contains(nativeRule) { nativeByBandit[id, default: []].append(nativeRule) }
            if !(banditByNative[nativeRule] ?? []).contains(id) { banditByNative[nativeRule, default: []].append(id) }
        }
        for id in semgrepIds where !id.isEmpty {
            if !(nativeBySemgrep[id] ?? []).contains(nativeRule) { nativeBySemgrep[id, default: []].append(nativeRule) }
            if !(semgrepByNative[nativeRule] ?? []).contains(id) { semgrepByNative[nativeRule, default: []].append(id) }
        }
    }

    /// Native rules that cover Bandit test `testId` (`B307` or `bandit.B307`).
    public func nativeRules(forBandit testId: String) -> [String] {
        nativeByBandit[(RuleID(testId).checkId(of: ToolName.bandit) ?? testId).uppercased()] ?? []
    }

    /// Bandit test ids native rule `ruleId` covers.
    public func banditIds(forNative ruleId: String) -> [String] { banditByNative[ruleId] ?? [] }

    /// Native rules that cover Semgrep rule `id` (with or without the `semgrep.` prefix). Ids
    /// match when equal or when one is the other's dotted suffix (`eval-detected` and
    /// `python.lang.security.audit.eval-detected.eval-detected`), as `nosemgrep: id` matches.
    public func nativeRules(forSemgrep id: String) -> [String] {
        let bare = RuleID(id).checkId(of: ToolName.semgrep) ?? id
        var result: [String] = []
        for (known, natives) in nativeBySemgrep where Self.semgrepIdsMatch(known, bare) {
            for native in natives where !result.contains(native) { result.append(native) }
        }
        return result.sorted()
    }

    /// Semgrep rule ids native rule `ruleId` corresponds to.
    public func semgrepIds(forNative ruleId: String) -> [String] { semgrepByNative[ruleId] ?? [] }

    /// Equal (ignoring case), or one is a dotted suffix of the other.
    static func semgrepIdsMatch(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.lowercased(), b.lowercased())
        return x == y || x.hasSuffix("." + y) || y.hasSuffix("." + x)
    }
}
