import Documents
import Findings
import Web

/// The proof phase (`sentinel scan --prove`): no crawl; for each static finding, the checks of
/// its weakness at its route and its parameter only, one target after the other, so the
/// requests each proof sent are its own.
extension WebScan {
    /// The value every parameter and path placeholder is given before a payload: a number,
    /// which a typed route (`<int:id>`) accepts and every check appends to or replaces.
    static let proofOriginal = "1"
    /// The value the target's parameter starts from, of the kind its weakness takes: the
    /// traversal, inclusion and request-forgery checks leave a number alone (an id is no file
    /// name and no URL), and a redirect's target is a path (Django's `redirect("1")` fails
    /// where `redirect("/")` redirects).
    static func original(for target: ProofTarget) -> String {
        let checks = Set(target.checks)
        if !checks.isDisjoint(with: [PathTraversalCheck.rule.id, FileInclusionCheck.rule.id]) { return "sentinel.txt" }
        if checks.contains(SSRFCheck.rule.id) { return "http://localhost/" }
        if checks.contains(OpenRedirectCheck.rule.id) { return "/" }
        return proofOriginal
    }

    /// The most requests one proof sends unless `--max-requests-per-finding` says otherwise.
    public static let defaultRequestsPerProof = 100

    /// Proves `targets` against the application at `start`. Throws only
    /// `RequestBudget.Exhausted`; the outcomes of the targets proved so far are in `outcomes`.
    func provePhase(
        _ targets: [ProofTarget], start: WebURL, client: WebClient, budget: RequestBudget, canary: CanaryRegistry?,
        tally: RequestTally, outcomes: inout [ProofOutcome]
    ) throws {
        let markers = Markers(seed: options.seed)
        let planted = PlantedMarkers()
        let engines = DatabaseEngines()
        for target in targets {
            let before = budget.sent
            var outcome = ProofOutcome(id: target.id)
            defer {
                outcome.requests = budget.sent - before
                outcomes.append(outcome)
            }
            let checks = WebRules.active.filter { check in check.rules.contains { target.checks.contains($0.id) } }
            guard !checks.isEmpty else {
                outcome.reason = "no check proves this weakness"
                continue
            }
            var reasons: [String] = []
            let points = Self.points(of: target, start: start)
            if points.isEmpty {
                outcome.reason =
                    target.part == .path
                    ? "the route's path \(target.route) does not show where \(target.parameter) goes"
                    : "'\(target.parameter)' cannot be sent as a \(target.part.rawValue)'s name"
                continue
            }
            // One proof's share of the budget: a check that would spend more ends this proof, not the scan.
            let share = options.maxRequestsPerProof ?? Self.defaultRequestsPerProof
            budget.share(share)
            defer { budget.share(nil) }
            do {
                for found in points {
                    let point = try Self.seededFromPage(found, client: client, tally: tally)
                    let baseline: WebResponse
                    do {
                        tally.count("baseline")
                        baseline = try client.send(point.request(point.original))
                    } catch let exhausted as RequestBudget.Exhausted {
                        throw exhausted
                    } catch {
                        reasons.append("no answer from \(point.endpoint.method) \(point.endpoint.url.path): \(Self.reason("\(error)"))")
                        continue
                    }
                    if let refusal = Self.refusal(baseline.status) {
                        reasons.append("\(point.endpoint.method) \(point.endpoint.url.path) answered \(baseline.status): \(refusal)")
                        continue
                    }
                    var context = ActiveContext(
                        client: client, baseline: baseline, markers: markers, canary: canary, planted: planted, tally: tally,
                        engines: engines)
                    for check in checks where !point.isBinary || check.readsBytes {
                        context.check = check.rules[0].id
                        if let finding = try check.test(point, context: context).first {
                            outcome.finding = finding
                            break
                        }
                    }
                    if outcome.finding != nil { break }
                    outcome.probes += Self.probes(at: point, in: canary)
                    let at = "\(point.endpoint.method) \(point.endpoint.url.path) [\(point.name)]"
                    // A 404 may be the route's own answer to a value that names nothing (`/files?name=1`):
                    // the checks run all the same, and the reason says both.
                    reasons.append(
                        baseline.status == 404
                            ? "\(at) answered 404 (not found): the route is not reached, or not with this value"
                            : "the check did not confirm it at \(at)" + Self.redirection(baseline, from: point.endpoint.url))
                }
            } catch RequestBudget.Exhausted.share(let size) {
                reasons.append("its share of \(size) requests ended before a check confirmed it")
                // The probes sent before the share ended may still be fetched (the canary's grace).
                for point in points {
                    outcome.probes += Self.probes(at: point, in: canary).filter { probe in
                        !outcome.probes.contains { $0.token == probe.token }
                    }
                }
            }
            if outcome.finding == nil { outcome.reason = reasons.joined(separator: "; ") }
        }
    }

    /// A form point with the other fields of the route's own form, when a `GET` of the route
    /// serves one that posts back to it: its hidden fields (a CSRF token, which a framework
    /// refuses a post without) and defaults go with the payload, as a browser would send them.
    /// Any other point, or a page without such a form, is `point` as it is.
    static func seededFromPage(_ point: InsertionPoint, client: WebClient, tally: RequestTally) throws -> InsertionPoint {
        guard case .form(let name) = point.place, case .form = point.endpoint.body else { return point }
        let url = point.endpoint.url
        tally.count("baseline")
        let page: WebResponse
        do {
            page = try client.send(Endpoint(method: "GET", url: url, discovery: .start).request)
        } catch let exhausted as RequestBudget.Exhausted {
            throw exhausted
        } catch {
            return point
        }
        guard page.isHTML else { return point }
        let forms = HTMLDocument.parse(page.text, url: url).forms.filter { $0.method == "POST" && $0.action.path == url.path }
        guard let form = forms.first(where: { $0.fields.contains { $0.name == name } }) ?? forms.first else { return point }
        var pairs = form.submission().map { NameValue($0.name, $0.value) }.filter { $0.name != name }
        // The handler's other fields the form lacks keep the values the point gave them.
        if case .form(let given) = point.endpoint.body {
            pairs += given.filter { field in field.name != name && !pairs.contains { $0.name == field.name } }
        }
        pairs.append(NameValue(name, point.original))
        var endpoint = point.endpoint
        endpoint.body = .form(pairs)
        return InsertionPoint(endpoint: endpoint, place: point.place, original: point.original)
    }

    /// Whether `name` is an HTTP token (RFC 9110), as a header's or a cookie's name must be: the
    /// repository names it, and a name with `:`, `;`, `=`, a space or a line break would write
    /// another header or cookie.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }

    /// The out-of-band probes the checks sent at `point` (its parameter, its URL).
    static func probes(at point: InsertionPoint, in canary: CanaryRegistry?) -> [OOBProbe] {
        let url = point.request(point.original).url.withQuery([]).string
        return (canary?.all ?? []).filter {
            $0.finding.location.parameter == point.name && $0.finding.location.url.map { $0.hasPrefix(url) } == true
        }
    }

    /// ` (it answered 302, to /signin: a login may be needed)` for a baseline that sent the
    /// request elsewhere (a sign-in page, a value the route rejects), nothing otherwise: the
    /// checks still ran (an open redirect's route answers 302 too), the reason says where it went.
    static func redirection(_ baseline: WebResponse, from url: WebURL) -> String {
        guard (300..<400).contains(baseline.status), let location = baseline.header("Location"),
            let target = url.resolving(location), target.path != url.path
        else { return "" }
        let path = String(target.path.prefix(200)).filter { !$0.isNewline }
        return " (it answered \(baseline.status), to \(path): a login may be needed, give prove.login or dast.login)"
    }

    /// Why an answer shows the route was not reached, or nil when it was.
    static func refusal(_ status: Int) -> String? {
        switch status {
        case 405: "route not reached (method not allowed)"
        case 401, 403: "refused (the route needs a login: give prove.login or dast.login)"
        default: nil
        }
    }

    /// The insertion points of `target`: its parameter where its source reads it, on its
    /// route's path below the start URL's (`http://app/base/` + `/notes/<id>`).
    static func points(of target: ProofTarget, start: WebURL) -> [InsertionPoint] {
        let base = start.path.hasSuffix("/") ? String(start.path.dropLast()) : start.path
        let route = target.route.hasPrefix("/") ? target.route : "/" + target.route
        let (filled, segment) = RoutePath.filled(base + route, with: proofOriginal, marking: target.parameter)
        // The route is the repository's text: whatever it holds stays path (no query, fragment,
        // control byte or space reaches the request line).
        let path = FormEncoding.percentEncode(filled, allowing: "/-._~!$&'()*+,;=:@%")
        let url = start.with(path: path).withQuery([])
        let method = target.method.uppercased()
        let original = original(for: target)
        let name = target.parameter
        func point(_ body: Endpoint.Body, query: [NameValue] = [], _ place: InsertionPoint.Place) -> InsertionPoint {
            let query = place == .query(name) ? query : query.filter { $0.name != name }
            return InsertionPoint(
                endpoint: Endpoint(method: method, url: url, query: query, body: body, discovery: .start), place: place,
                original: original)
        }
        // The handler's other values, by part: plain values beside the one tried.
        func others(_ part: RequestPart) -> [NameValue] {
            target.others.compactMap { entry in
                guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == part.rawValue else { return nil }
                let other = String(entry[entry.index(after: colon)...])
                return other == name || other.isEmpty ? nil : NameValue(other, proofOriginal)
            }
        }
        let queryOthers = others(.query) + others(.queryOrForm)
        let form = point(.form(others(.form) + others(.formOrJSON) + [NameValue(name, original)]), query: queryOthers, .form(name))
        let members = (others(.json) + others(.formOrJSON)).map { ($0.name, DocumentNode.Value.string($0.value)) }
        let json = point(
            .json(DocumentNode.object(members + [(name, .string(original))])), query: queryOthers, .json(JSONPath(steps: [.key(name)])))
        let query = point(.none, query: queryOthers + [NameValue(name, original)], .query(name))
        switch target.part {
        case .query: return [query]
        case .form: return [form]
        case .json: return [json]
        case .formOrJSON: return [form, json]
        case .queryOrForm: return method == "GET" || method == "HEAD" ? [query] : [form]
        case .body: return [point(.raw(contentType: "text/plain", text: original), .body)]
        case .cookie: return isToken(name) ? [point(.none, .cookie(name))] : []
        case .header:
            // A header's name has hyphens where code names it with underscores (FastAPI's
            // `user_agent: str = Header()`); proxies drop headers whose names have underscores.
            let header = name.replacingOccurrences(of: "_", with: "-")
            return isToken(header) ? [point(.none, .header(header))] : []
        case .path: return segment.map { [point(.none, .segment($0))] } ?? []
        case .handlerParameter: return []
        }
    }
}
