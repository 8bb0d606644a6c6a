import Findings

/// The stored-XSS pass after the active phase: the crawled pages are fetched again and every
/// marker the XSS check planted through a form is looked for as markup.
enum StoredXSSPass {
    static let rule = WebRule(
        id: "xss-stored", name: "Stored cross-site scripting", severity: .high, cwe: [79],
        help: "Escape stored content for its output context every time it is shown (autoescaping templates).")

    static func run(pages: [Exchange], planted: PlantedMarkers, client: WebClient, sink: FindingSink) throws {
        let markers = planted.all
        guard !markers.isEmpty else { return }
        var seen = Set<String>()
        let gets = pages.filter { $0.request.method == "GET" && $0.response.isHTML && seen.insert($0.request.url.string).inserted }
        for page in gets.prefix(200) {
            let response: WebResponse
            do {
                response = try client.send(page.request)
            } catch let exhausted as RequestBudget.Exhausted {
                throw exhausted
            } catch {
                continue
            }
            for (marker, point) in markers where response.text.contains(marker) {
                guard CrossSiteScriptingCheck.executes(marker, in: response.text) else { continue }
                sink.report(
                    rule.finding(
                        at: point,
                        message: "Stored XSS in '\(point.name)': what it stores is shown as markup on \(page.request.url.path)",
                        evidence: "Stored through: \(point.request("<\(marker)>").summary)\n"
                            + "Shown at: GET \(page.request.url)\n… \(Evidence.excerpt(of: response.text, around: marker) ?? "") …",
                        web: WebFacts(shownAt: page.request.url.string)))
            }
        }
    }
}
