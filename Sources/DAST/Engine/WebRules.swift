/// Every check the engine runs, in order, and the rules they report.
public enum WebRules {
    /// Checks run on every exchange of the crawl.
    public static let passive: [any PassiveCheck] = [
        SecurityHeadersCheck(), CookieFlagsCheck(), ServerBannerCheck(), DirectoryListingCheck(), ErrorDisclosureCheck(),
        CSRFTokenCheck(),
    ]
    /// Harmless probes after the crawl (run without `--active` too).
    public static let probes: [any ProbeCheck] = [SensitiveFileCheck(), CORSCheck()]
    /// Injection checks, in the order they run on each insertion point (SQL before XPath: the
    /// XPath check defers to a SQL finding on the same parameter; file inclusion before path
    /// traversal and SSRF, which defer to it: a file that runs is more than one that is read).
    public static let active: [any ActiveCheck] = [
        CrossSiteScriptingCheck(), SQLInjectionCheck(), XPathInjectionCheck(), LDAPInjectionCheck(),
        CommandInjectionCheck(), FileInclusionCheck(), PathTraversalCheck(), CodeEvaluationCheck(), TemplateInjectionCheck(),
        OpenRedirectCheck(), HeaderInjectionCheck(), SSRFCheck(), XXECheck(), DeserializationCheck(),
    ]

    /// Every rule, for SARIF's metadata.
    public static var all: [WebRule] {
        passive.flatMap(\.rules) + probes.flatMap(\.rules) + active.flatMap(\.rules)
    }
}
