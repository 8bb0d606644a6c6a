#if canImport(Glibc)
    import Glibc
#endif
import Findings
import HTTP
import Support
import Synchronization
import Web

/// One web scan, start to end: crawl (passive checks on every answer), harmless probes, then
/// with `--active` every check on every insertion point, then the stored-XSS pass. The budget
/// ends it early when spent; what was found so far is kept and the result says why it stopped.
public struct WebScan: Sendable {
    /// What to scan and how.
    public var options: WebScanOptions
    /// How requests are sent (libcurl; a fake in tests).
    public var transport: any WebTransport

    /// A scan of `options.target` over `transport` (by default libcurl with the options' proxy and limits).
    public init(options: WebScanOptions, transport: (any WebTransport)? = nil) {
        self.options = options
        self.transport =
            transport
            ?? CurlTransport(
                proxy: options.proxy, timeout: options.requestTimeout, connectTimeout: min(5, options.requestTimeout),
                maxBodyBytes: Int64(options.maxResponseBytes))
    }

    /// What a fatal result says of an application that never answered its readiness path.
    public static let notUp = "the application did not answer"

    /// Asks `url` until it answers (any status), every 200 ms, for at most `seconds`: the
    /// application was just started. Nil once it answered, else why not. Not the scan's requests.
    static func waitUntilUp(_ url: WebURL, seconds: Double, transport: any WebTransport) -> String? {
        let deadline = MonotonicClock.seconds() + seconds
        var last = "no answer"
        while true {
            do {
                _ = try transport.send(WebRequest(url: url))
                return nil
            } catch {
                last = reason("\(error)")
            }
            if MonotonicClock.seconds() + 0.2 >= deadline {
                return "\(url): \(notUp) within \(Int(seconds.rounded()))s: \(last)"
            }
            usleep(200_000)
        }
    }

    /// Runs the scan. Throws `SentinelError(.invalidInput)` for a bad target URL or header; a
    /// target that does not answer is `fatal` in the result.
    public func run() throws -> WebScanResult {
        let start = try WebTarget.parse(options.target)
        // A target just started is waited for before the budget's clock starts: the wait is its own.
        if let path = options.readyPath {
            // Only the target's own origin answers for it.
            let ready = start.resolving(path).flatMap { $0.origin == start.origin ? $0 : nil } ?? start
            if let problem = Self.waitUntilUp(ready, seconds: options.readySeconds ?? 60, transport: transport) {
                var result = WebScanResult()
                result.fatal = problem
                return result
            }
        }
        let budget = RequestBudget(
            maxRequests: options.maxRequests, ratePerSecond: options.ratePerSecond, maxDuration: options.maxDuration)
        let cookies = CookieJar()
        for cookie in options.cookies {
            guard let equals = cookie.firstIndex(of: "="), equals > cookie.startIndex else {
                throw SentinelError(.invalidInput, "--cookie: '\(cookie)' is not name=value")
            }
            cookies.set(String(cookie[..<equals]), String(cookie[cookie.index(after: equals)...]))
        }
        let excluded = try WebScanOptions.exclusionGlobs(options.exclude)
        let client = WebClient(
            scope: Scope(target: start), transport: transport, budget: budget,
            headers: try WebTarget.headers(options.headers), cookies: cookies, login: options.login, excluded: excluded)
        let sink = FindingSink()
        var result = WebScanResult()
        if options.login != nil {
            // An authenticated scan that cannot log in would report the login page's findings as
            // the application's: it fails, saying why.
            do {
                try client.logIn(start: start)
            } catch let error as SentinelError {
                result.fatal = error.message
                result.requests = budget.sent
                return result
            } catch {
                result.fatal = "the scan's budget ended while logging in"
                result.requests = budget.sent
                return result
            }
        }
        let tally = RequestTally()
        if !options.proofs.isEmpty {
            let registry = options.canary.map(CanaryRegistry.init)
            do {
                try provePhase(
                    options.proofs, start: start, client: client, budget: budget, canary: registry, tally: tally,
                    outcomes: &result.proofs)
            } catch let exhausted as RequestBudget.Exhausted {
                result.stoppedBy = Self.stopped(by: exhausted)
            }
            result.requestsByCheck = tally.all
            result.requests = budget.sent
            result.seconds = budget.elapsed
            return result
        }
        let passive = WebRules.passive.filter { options.checks.runs($0.rules) }
        tally.count("crawl", budget.sent)  // the login's, as before the crawl
        var sent = budget.sent
        var graphQL =
            options.active ? GraphQLDiscovery.endpoints(paths: GraphQLDiscovery.usualPaths, start: start, client: client) : []
        tally.count("graphql", budget.sent - sent)
        sent = budget.sent
        var crawler = Crawler(
            start: start, client: client,
            limits: CrawlLimits(maxPages: options.maxPages, maxDepth: options.maxDepth, submitsMutatingForms: options.active),
            concurrency: options.concurrency, api: options.api)
        crawler.entries = client.loginLanding.map { [$0] } ?? []
        var site: Crawler.Result
        do {
            site = try crawler.crawl { exchange in
                for check in passive { check.inspect(exchange, into: sink) }
            }
        } catch let error as SentinelError {
            result.fatal = "\(start): the target did not answer: \(Self.reason(error.message))"
            result.requests = budget.sent
            return result
        } catch {
            result.fatal = "\(start): the scan's budget ended before the first page"
            return result
        }
        result.pages = site.pages.count
        result.endpoints = site.endpoints.count
        result.outOfScope = Array(site.outOfScope.prefix(50))
        result.notices += options.apiNotices.map { "OpenAPI document " + $0 } + site.notices
        tally.count("crawl", budget.sent - sent)
        sent = budget.sent
        for probe in WebRules.probes where options.checks.runs(probe.rules) {
            probe.probe(site, start: start, client: client, sink: sink)
        }
        tally.count("probes", budget.sent - sent)
        var registry: CanaryRegistry?
        do {
            if options.active {
                registry = options.canary.map(CanaryRegistry.init)
                let planted = PlantedMarkers()
                sent = budget.sent
                if graphQL.isEmpty {
                    graphQL = GraphQLDiscovery.endpoints(
                        paths: GraphQLDiscovery.crawledPaths(site), start: start, client: client)
                }
                site.endpoints += graphQL
                tally.count("graphql", budget.sent - sent)
                result.insertionPoints = try activePhase(
                    site, start: start, client: client, sink: sink, canary: registry, planted: planted, tally: tally)
                sent = budget.sent
                defer { tally.count(StoredXSSPass.rule.id, budget.sent - sent) }
                if options.checks.reports(StoredXSSPass.rule.id) {
                    // Markers of their own, seeded apart from the active phase's (deterministic for a seed).
                    let markers = Markers(seed: options.seed == 0 ? 0 : options.seed &+ 0x5eed)
                    try StoredXSSPass.run(pages: site.pages, planted: planted, markers: markers, client: client, sink: sink)
                }
            }
        } catch let exhausted as RequestBudget.Exhausted {
            result.stoppedBy = Self.stopped(by: exhausted)
        }
        if result.stoppedBy == "complete" {
            // The crawl and the probes end quietly on the budget; say so here.
            if budget.sent >= options.maxRequests {
                result.stoppedBy = "request budget (\(options.maxRequests) requests)"
            } else if budget.remaining == 0 {
                result.stoppedBy = "time limit (\(Int(options.maxDuration)) s)"
            }
        }
        result.requestsByCheck = tally.all
        // A forged request carries only what the browser adds by itself: where the site never set
        // a cookie (an API authorised by a header), a form without a token is no CSRF risk.
        let ambient = cookies.everHeld
        result.findings = sink.findings.filter { finding in
            options.checks.reports(finding.ruleId) && (ambient || finding.ruleId != CSRFTokenCheck.rule.ruleId)
        }
        result.probes = registry?.all ?? []
        result.requests = budget.sent
        result.seconds = budget.elapsed
        let problems = client.problems
        if problems.truncated > 0 {
            result.notices.append("\(problems.truncated) responses were larger than \(options.maxResponseBytes) bytes and were cut")
        }
        let logins = client.logins
        if logins.count > 1 || logins.failure != nil {
            var line = "logged in again \(logins.renewals) time\(logins.renewals == 1 ? "" : "s") after the session ended"
            if let failure = logins.failure { line += "; then \(failure): the rest ran without a session" }
            result.notices.append(line)
        }
        if problems.throttled > 0 {
            result.notices.append("the target asked to slow down \(problems.throttled) times (429 or Retry-After): the scan waited")
        }
        if problems.errors > 0 {
            result.notices.append("\(problems.errors) requests got no answer (first: \(Self.reason(problems.firstError ?? "")))")
        }
        return result
    }

    /// Every active check on every insertion point, `concurrency` points at a time. Returns the
    /// number of points tested; throws `RequestBudget.Exhausted` when the budget ends.
    private func activePhase(
        _ site: Crawler.Result, start: WebURL, client: WebClient, sink: FindingSink, canary: CanaryRegistry?,
        planted: PlantedMarkers, tally: RequestTally
    ) throws -> Int {
        let markers = Markers(seed: options.seed)
        let all =
            site.endpoints.flatMap { InsertionPoint.all(of: $0) } + cookiePoints(site, cookies: client.cookies)
            + [InsertionPoint.missingPage(of: start)]
        // The reads all end before the first request that changes state: a query tested while
        // another point inserts rows answers differently each time and proves nothing. Forms
        // with a password field (a password change) come last: they may end the session.
        let phases = [
            all.filter { !$0.endpoint.isMutating }, all.filter { $0.endpoint.isMutating && !$0.endpoint.mayEndSession },
            all.filter(\.endpoint.mayEndSession),
        ]
        let baselines = Baselines()
        let engines = DatabaseEngines()
        for points in phases {
            if let error = test(points, client: client, sink: sink, context: (markers, canary, planted, tally, engines), baselines) {
                throw error
            }
        }
        return all.count
    }

    /// Every active check on each of `points`, `concurrency` points at a time; returns the first
    /// `RequestBudget.Exhausted` (the rest of the points then stop).
    private func test(
        _ points: [InsertionPoint], client: WebClient, sink: FindingSink,
        context shared: (Markers, CanaryRegistry?, PlantedMarkers, RequestTally, DatabaseEngines), _ baselines: Baselines
    ) -> RequestBudget.Exhausted? {
        let (markers, canary, planted, tally, engines) = shared
        let exhausted = Mutex<RequestBudget.Exhausted?>(nil)
        ParallelFor.run(points.count, threads: options.concurrency) { index in
            guard exhausted.withLock({ $0 == nil }) else { return }
            let point = points[index]
            do {
                let baseline = try baselines.answer(point.request(point.original)) {
                    tally.count("baseline")
                    return try client.send($0)
                }
                let errors = ErrorDisclosureCheck()
                var context = ActiveContext(
                    client: client, baseline: baseline, markers: markers, canary: canary, planted: planted, tally: tally,
                    engines: engines, observe: { errors.inspect($0, into: sink) })
                for check in WebRules.active where options.checks.runs(check.rules) && (!point.isBinary || check.readsBytes) {
                    context.check = check.rules[0].id
                    for finding in try check.test(point, context: context) {
                        context.reported.insert(finding.ruleId)
                        sink.report(finding)
                    }
                }
            } catch let error as RequestBudget.Exhausted {
                exhausted.withLock { $0 = $0 ?? error }
            } catch {
                return  // no baseline: the point is skipped
            }
        }
        return exhausted.withLock { $0 }
    }

    /// The session's cookies as insertion points of the pages that set them (the deserialisation
    /// and injection checks reach cookie values this way).
    private func cookiePoints(_ site: Crawler.Result, cookies: CookieJar) -> [InsertionPoint] {
        var points: [InsertionPoint] = []
        var seen = Set<String>()
        for page in site.pages {
            for line in page.response.headers(named: "Set-Cookie") {
                guard let cookie = SetCookie(line), !cookie.value.isEmpty, seen.insert(cookie.name).inserted else { continue }
                let endpoint = Endpoint(method: "GET", url: page.request.url, discovery: .link)
                points.append(InsertionPoint(endpoint: endpoint, place: .cookie(cookie.name), original: cookie.value))
            }
        }
        return points + points.compactMap(\.wrapped)
    }

    /// What `stoppedBy` says of a spent budget.
    static func stopped(by exhausted: RequestBudget.Exhausted) -> String {
        switch exhausted {
        case .requests(let count): "request budget (\(count) requests)"
        case .duration(let seconds): "time limit (\(Int(seconds)) s)"
        case .share(let count): "share of one proof (\(count) requests)"
        }
    }

    /// curl's text without the `METHOD URL: ` prefix the HTTP module adds.
    static func reason(_ message: String) -> String {
        guard let range = message.range(of: ": ") else { return message }
        return String(message[range.upperBound...])
    }
}

/// The answers to the original requests of the points: the parameters of one page share the
/// page's answer. Reads only; a form's answer may change with every submission.
final class Baselines: Sendable {
    private let answers = Mutex<[WebRequest: WebResponse]>([:])

    /// The remembered answer to `request` (a GET or HEAD), or `fetch`'s.
    func answer(_ request: WebRequest, fetch: (WebRequest) throws -> WebResponse) throws -> WebResponse {
        guard ["GET", "HEAD"].contains(request.method) else { return try fetch(request) }
        if let known = answers.withLock({ $0[request] }) { return known }
        let answer = try fetch(request)
        answers.withLock { $0[request] = answer }
        return answer
    }
}
