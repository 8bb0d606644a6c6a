import Foundation
import Support
import Synchronization
import Web

/// Breadth-first crawl of the target's origin: links, forms (GET forms submitted with their
/// defaults; POST forms only with `--active`), in-scope redirects, robots.txt, sitemap.xml and
/// OpenAPI seeds. URLs are de-duplicated by method, path and parameter *names*, so a calendar
/// with endless `?month=N` links is visited once. Every exchange goes to `observe` (the passive
/// checks) as it arrives.
public struct Crawler: Sendable {
    /// Where to start.
    public var start: WebURL
    /// Sends the requests (scope, budget and session live there).
    public var client: WebClient
    /// Pages, depth, forms.
    public var limits: CrawlLimits
    /// Requests in flight at once.
    public var concurrency: Int
    /// Operations from an OpenAPI document.
    public var api: [APISeed]
    /// Pages to fetch besides the start page's links (where the login landed).
    public var entries: [WebURL] = []

    /// A crawler; see the properties.
    public init(start: WebURL, client: WebClient, limits: CrawlLimits, concurrency: Int = 4, api: [APISeed] = []) {
        self.start = start
        self.client = client
        self.limits = limits
        self.concurrency = concurrency
        self.api = api
    }

    /// What a crawl found.
    public struct Result: Sendable {
        /// Every distinct endpoint, in discovery order.
        public var endpoints: [Endpoint]
        /// The pages fetched, with their answers (for the stored-XSS re-check).
        public var pages: [Exchange]
        /// Links and form actions seen but left alone because they are out of scope.
        public var outOfScope: [String]
        /// What the crawl left out and says so (an OpenAPI document's examples over their bounds).
        public var notices: [String] = []
    }

    /// Crawls until the frontier is empty or a limit is reached. The start page must answer:
    /// when it does not, throws the transport's `SentinelError(.network)`.
    public func crawl(observe: @escaping @Sendable (Exchange) -> Void) throws -> Result {
        let state = CrawlState()
        let first = Endpoint(method: "GET", url: start, discovery: .start)
        state.admit(first)
        // The start page is fetched alone so that an unreachable target fails the scan at once.
        let firstExchange = try fetch(first, observe: observe)
        var frontier = follow(firstExchange, from: first, depth: 0, state: state)
        frontier += seeds(state: state, observe: observe)
        for entry in entries where client.scope.contains(entry) && !CrawlLimits.skips(entry) {
            let endpoint = Endpoint(method: "GET", url: entry, discovery: .login)
            if state.admit(endpoint) { frontier.append(endpoint) }
        }
        var depth = 1
        while !frontier.isEmpty, depth <= limits.maxDepth, state.pageCount < limits.maxPages {
            let level = frontier
            let currentDepth = depth
            let next = Mutex<[Endpoint]>([])
            ParallelFor.run(level.count, threads: concurrency) { index in
                guard state.takePage(limit: self.limits.maxPages) else { return }
                guard let exchange = try? self.fetch(level[index], observe: observe) else { return }
                let found = self.follow(exchange, from: level[index], depth: currentDepth, state: state)
                next.withLock { $0 += found }
            }
            frontier = next.withLock { $0 }
            depth += 1
        }
        return Result(endpoints: state.endpoints, pages: state.pages, outOfScope: state.outOfScope, notices: state.notices)
    }

    private func fetch(_ endpoint: Endpoint, observe: @escaping @Sendable (Exchange) -> Void) throws -> Exchange {
        let request = endpoint.request
        let response = try client.send(request)
        let exchange = Exchange(request: request, response: response)
        observe(exchange)
        return exchange
    }

    /// The new endpoints an answer leads to: its redirect, links and forms.
    private func follow(_ exchange: Exchange, from endpoint: Endpoint, depth: Int, state: CrawlState) -> [Endpoint] {
        state.record(page: exchange)
        var found: [Endpoint] = []
        func consider(_ candidate: Endpoint) {
            guard client.scope.contains(candidate.url) else {
                state.noteOutOfScope(candidate.url.string)
                return
            }
            guard !CrawlLimits.skips(candidate.url), !client.excludes(candidate.url), state.admit(candidate) else { return }
            // A form with a password field (a password change) is recorded for the active phase,
            // which tests it last, but not submitted while crawling: it may end the session.
            if candidate.isMutating && (!limits.submitsMutatingForms || candidate.mayEndSession) { return }
            found.append(candidate)
        }
        let response = exchange.response
        if response.isRedirect, let location = response.header("Location"),
            let target = exchange.request.url.resolving(location)
        {
            consider(Endpoint(method: "GET", url: target, discovery: .redirect))
        }
        guard response.isHTML, depth < limits.maxDepth else { return found }
        let document = HTMLDocument.parse(response.text, url: exchange.request.url)
        for link in document.links {
            consider(Endpoint(method: "GET", url: link.url, discovery: .link))
        }
        for form in document.forms {
            let pairs = form.submission().map { NameValue($0.name, $0.value) }
            let files = form.fields.filter { $0.kind == .file && !$0.name.isEmpty && !$0.isDisabled }
            if form.method == "POST", form.enctype == HTMLForm.multipart, !files.isEmpty {
                let uploads = files.map { UploadFile.probe(field: $0.name, accept: $0.accept) }
                consider(Endpoint(method: "POST", url: form.action, query: nil, body: .multipart(pairs, files: uploads), discovery: .form))
            } else if form.method == "POST" {
                consider(Endpoint(method: "POST", url: form.action, query: nil, body: .form(pairs), discovery: .form))
            } else {
                consider(Endpoint(method: "GET", url: form.action, query: pairs, discovery: .form))
            }
        }
        return found
    }

    /// The operations of an OpenAPI document served at a well-known path (the first that parses),
    /// parsed here, inside the sandbox, like every other answer.
    private func discoveredAPI(state: CrawlState, observe: @escaping @Sendable (Exchange) -> Void) -> [APISeed] {
        guard api.isEmpty else { return [] }
        for path in ["/openapi.json", "/swagger.json", "/openapi.yaml", "/api/openapi.json", "/v3/api-docs"] {
            guard let url = start.resolving(path), let answer = try? client.send(WebRequest(url: url)),
                answer.status == 200, !answer.truncated, !answer.isHTML,
                let document = try? OpenAPIDocument.parse(bytes: answer.body, file: path)
            else { continue }
            observe(Exchange(request: WebRequest(url: url), response: answer))
            // The target's document: what it made the scan leave out is said (`FILE:LINE: ...`).
            for notice in document.notices { state.note("OpenAPI document " + notice) }
            return APISeeds.seeds(of: document, base: start)
        }
        return []
    }

    /// robots.txt paths and sitemaps, `/sitemap.xml`, and the OpenAPI operations.
    private func seeds(state: CrawlState, observe: @escaping @Sendable (Exchange) -> Void) -> [Endpoint] {
        var found: [Endpoint] = []
        var sitemaps: [WebURL] = []
        func add(_ endpoint: Endpoint) {
            guard client.scope.contains(endpoint.url) else {
                state.noteOutOfScope(endpoint.url.string)
                return
            }
            if !client.excludes(endpoint.url), state.admit(endpoint) { found.append(endpoint) }
        }
        if let robotsURL = start.resolving("/robots.txt"),
            let robots = try? client.send(WebRequest(url: robotsURL)), robots.status == 200
        {
            observe(Exchange(request: WebRequest(url: robotsURL), response: robots))
            let parsed = RobotsTxt.parse(robots.text)
            for path in parsed.paths.prefix(200) where path != "/" {
                if let url = start.resolving(path) { add(Endpoint(method: "GET", url: url, discovery: .robots)) }
            }
            sitemaps += parsed.sitemaps.prefix(10).compactMap { start.resolving($0) }
        }
        if let standard = start.resolving("/sitemap.xml"), !sitemaps.contains(standard) { sitemaps.append(standard) }
        for sitemap in sitemaps {
            guard client.scope.contains(sitemap) else {
                state.noteOutOfScope(sitemap.string)
                continue
            }
            guard let answer = try? client.send(WebRequest(url: sitemap)), answer.status == 200 else { continue }
            observe(Exchange(request: WebRequest(url: sitemap), response: answer))
            for location in Sitemap.parse(answer.text).urls.prefix(500) {
                if let url = start.resolving(location) { add(Endpoint(method: "GET", url: url, discovery: .sitemap)) }
            }
        }
        for seed in api + discoveredAPI(state: state, observe: observe) {
            guard let url = start.resolving(seed.pathAndQuery) else { continue }
            var endpoint = Endpoint(method: seed.method, url: url, discovery: .openapi)
            endpoint.headers = seed.headers.sorted { $0.key < $1.key }.map { NameValue($0.key, $0.value) }
            if let type = seed.contentType, let body = seed.body {
                endpoint.body = APIBody.make(contentType: type, text: body)
            }
            guard client.scope.contains(endpoint.url), !client.excludes(endpoint.url) else { continue }
            // API operations are recorded even when mutating: only the active checks send them.
            if state.admit(endpoint), !endpoint.isMutating || limits.submitsMutatingForms { found.append(endpoint) }
        }
        return found
    }
}
