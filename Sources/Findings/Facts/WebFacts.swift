/// The facts of a web finding (native DAST, ZAP, Wapiti); the URL, method and parameter are in
/// the finding's `Location`, the request and response excerpt in its `evidence`.
public struct WebFacts: Sendable, Hashable {
    /// How an active check proved the problem.
    public enum Technique: String, Sendable, Hashable, CaseIterable {
        /// The payload's output appeared in the response.
        case output
        /// The response was delayed as the payload asked.
        case time
        /// A file's content appeared in the response.
        case file
        /// The canary host was contacted.
        case outOfBand = "out-of-band"
        /// The response carried the back end's error message.
        case error
        /// True and false conditions answered differently.
        case boolean
        /// The canary's answer was echoed in the response.
        case echo
    }

    /// Where the parameter travels (`query`, `body`, `header`, `cookie`, ...).
    public var parameterIn: String?
    /// How the check proved it.
    public var technique: Technique?
    /// The page a stored payload was shown on.
    public var shownAt: String?
    /// The markup context a reflection landed in.
    public var reflectionContext: String?
    /// How often the same problem was seen, when more than once.
    public var occurrences: Int?
    /// The WASC threat classification id.
    public var wascId: Int?
    /// OWASP Web Security Testing Guide ids (`WSTG-INPV-01`).
    public var wstg: [String]?

    /// Web facts; leave out what is unknown.
    public init(
        parameterIn: String? = nil, technique: Technique? = nil, shownAt: String? = nil,
        reflectionContext: String? = nil, occurrences: Int? = nil, wascId: Int? = nil, wstg: [String]? = nil
    ) {
        self.parameterIn = parameterIn
        self.technique = technique
        self.shownAt = shownAt
        self.reflectionContext = reflectionContext
        self.occurrences = occurrences
        self.wascId = wascId
        self.wstg = wstg
    }
}
