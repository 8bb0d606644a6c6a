import Findings

/// The stored-XSS pass after the active phase: the crawled pages are fetched again and every
/// marker the XSS check planted through a form is looked for as markup.
enum StoredXSSPass {
    static let rule = WebRule(
        id: "xss-stored", name: "Stored cross-site scripting", severity: .high, cwe: [79],
        help: "Escape stored content for its output context every time it is shown (autoescaping templates).")

    /// Reads found storing what they are given are tried with markup at most this many times.
    static let storingReads = 20

    static func run(pages: [Exchange], planted: PlantedMarkers, markers markerSource: Markers, client: WebClient, sink: FindingSink) throws
    {
        let markers = planted.all
        let probes = planted.probes
        guard !markers.isEmpty || !probes.isEmpty else { return }
        var seen = Set<String>()
        let gets = pages.filter { $0.request.method == "GET" && $0.response.isHTML && seen.insert($0.request.url.string).inserted }
        var storing: [(point: InsertionPoint, page: Exchange)] = []
        var storingKeys = Set<String>()
        for page in gets.prefix(200) {
            guard let response = try fetch(page.request, client: client) else { continue }
            for (marker, point) in markers where response.text.contains(marker) {
                report(marker, through: point, shownAt: page, response, into: sink)
            }
            // A read's plain probe here: it stores (no markup sent through it yet).
            for (marker, point) in probes where response.text.contains(marker) && storing.count < storingReads {
                if storingKeys.insert(point.endpoint.key + "|" + point.name).inserted { storing.append((point, page)) }
            }
        }
        for (point, page) in storing {
            for template in ["<MARK>", "\"><MARK>"] {
                let marker = markerSource.marker()
                let payload = template.replacingOccurrences(of: "MARK", with: marker)
                guard (try fetch(point.request(point.original + payload), client: client)) != nil,
                    let response = try fetch(page.request, client: client), response.text.contains(marker)
                else { continue }
                if report(marker, through: point, shownAt: page, response, into: sink) { break }
            }
        }
    }

    /// The answer to `request`; nil when the target did not give one (the budget running out ends the pass).
    private static func fetch(_ request: WebRequest, client: WebClient) throws -> WebResponse? {
        do {
            return try client.send(request)
        } catch let exhausted as RequestBudget.Exhausted {
            throw exhausted
        } catch {
            return nil
        }
    }

    /// Reports `marker`, stored through `point`, when `response` (of `page`) shows it as markup.
    @discardableResult
    private static func report(
        _ marker: String, through point: InsertionPoint, shownAt page: Exchange, _ response: WebResponse, into sink: FindingSink
    ) -> Bool {
        guard CrossSiteScriptingCheck.executes(marker, in: response.text) else { return false }
        sink.report(
            rule.finding(
                at: point,
                message: "Stored XSS in '\(point.name)': what it stores is shown as markup on \(page.request.url.path)",
                evidence: "Stored through: \(point.request("<\(marker)>").summary)\n"
                    + "Shown at: GET \(page.request.url)\n… \(Evidence.excerpt(of: response.text, around: marker) ?? "") …",
                web: WebFacts(shownAt: page.request.url.string)))
        return true
    }
}
