import Support

/// Everything one web scan is told: the target, what to do, and its budgets. The parent builds
/// it from the command line and hands it to the sandboxed worker as JSON.
public struct WebScanOptions: Sendable, Codable, Hashable {
    /// The URL the scan starts from (http or https, no credentials, no fragment).
    public var target: String
    /// Run the active (injection) checks; without it the scan only reads (passive).
    public var active = false
    /// Extra request headers (`Authorization: ...`), sent to the target only.
    public var headers: [String] = []
    /// Cookies (`name=value`) the session starts with.
    public var cookies: [String] = []
    /// Requests per second at most.
    public var ratePerSecond: Double = 40
    /// Requests in flight at once.
    public var concurrency = 4
    /// Requests in all.
    public var maxRequests = 6000
    /// Seconds the whole scan may take (crawl and checks).
    public var maxDuration: Double = 600
    /// Seconds one request may take.
    public var requestTimeout: Double = 10
    /// Bytes kept of one response.
    public var maxResponseBytes = 2 << 20
    /// Pages the crawler fetches at most.
    public var maxPages = 300
    /// Links followed from the start page at most (depth).
    public var maxDepth = 6
    /// The proxy every request goes through (inside the sandbox: the egress proxy).
    public var proxy: String?
    /// Base URL of the out-of-band canary the parent listens on (`http://127.0.0.1:PORT`), nil
    /// to skip out-of-band checks.
    public var canary: String?
    /// Operations from an OpenAPI document (`--openapi`), already read by the parent.
    public var api: [APISeed] = []
    /// What reading that document left out (`FILE:LINE: ...`: an example past its bound, a
    /// `$ref` not followed), said with the scan's notices.
    public var apiNotices: [String] = []
    /// Seed for markers and arithmetic probes: fixed in tests, random otherwise.
    public var seed: UInt64 = 0
    /// How to log in before crawling, and again when the session ends (nil: no login).
    public var login: WebLogin?
    /// URL paths never requested, as policy globs (`/user/chpasswd`, `/admin/**`, `delete*`):
    /// what would end the session or destroy the data the scan needs.
    public var exclude: [String] = []
    /// The checks to run (`--dast-checks`): every one by default.
    public var checks = WebCheckSelection()
    /// Static findings to prove (`sentinel scan --prove`): when any, the scan sends only their
    /// checks to their routes and parameters, and crawls nothing.
    public var proofs: [ProofTarget] = []
    /// The most requests one proof may send (`--max-requests-per-finding`; nil: 100), within
    /// `maxRequests`: a proof past it ends unconfirmed and the next is tried.
    public var maxRequestsPerProof: Int?
    /// A target just started (`scan --prove` without a URL): the path asked (any HTTP answer
    /// will do) until it answers, for at most `readySeconds`; nil for a target already up.
    public var readyPath: String?
    /// How long to wait for `readyPath` to answer.
    public var readySeconds: Double?

    /// Options for `target`; everything else has its default.
    public init(target: String) {
        self.target = target
    }

    /// `exclude` compiled; throws `SentinelError(.invalidInput)` naming `--exclude-url` and the bad glob.
    public static func exclusionGlobs(_ patterns: [String]) throws -> [Glob] {
        try patterns.map { pattern in
            do {
                return try Glob.policy(pattern)
            } catch let error as SentinelError {
                throw SentinelError(.invalidInput, "--exclude-url: \(error.message)")
            }
        }
    }
}

/// One endpoint an OpenAPI document describes, as the worker needs it (no schema).
public struct APISeed: Sendable, Codable, Hashable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The path with path parameters filled, and the query (`/api/users/1?q=x`).
    public var pathAndQuery: String
    /// Header parameters and their example values.
    public var headers: [String: String] = [:]
    /// The request body's media type, nil for none.
    public var contentType: String?
    /// The example body.
    public var body: String?

    /// A seed; see the properties.
    public init(method: String, pathAndQuery: String, contentType: String? = nil, body: String? = nil) {
        self.method = method
        self.pathAndQuery = pathAndQuery
        self.contentType = contentType
        self.body = body
    }
}
