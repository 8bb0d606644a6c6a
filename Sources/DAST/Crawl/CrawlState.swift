import Synchronization

/// What the crawl's threads share: endpoints admitted (by key), pages fetched, out-of-scope URLs.
final class CrawlState: Sendable {
    private struct State {
        var keys = Set<String>()
        var endpoints: [Endpoint] = []
        var pages: [Exchange] = []
        var pagesTaken = 0
        var outOfScope: [String] = []
        var outOfScopeSeen = Set<String>()
        var notices: [String] = []
    }
    private let state = Mutex(State())

    /// Admits `endpoint` when its key is new; false when it was seen already.
    @discardableResult
    func admit(_ endpoint: Endpoint) -> Bool {
        state.withLock { state in
            guard state.keys.count < 20_000, state.keys.insert(endpoint.key).inserted else { return false }
            state.endpoints.append(endpoint)
            return true
        }
    }

    /// Takes one page of the page limit; false when it is reached.
    func takePage(limit: Int) -> Bool {
        state.withLock { state in
            guard state.pagesTaken < limit else { return false }
            state.pagesTaken += 1
            return true
        }
    }

    func record(page: Exchange) {
        state.withLock { state in
            // Bodies are kept for the stored-XSS re-check only while they are small in all.
            if state.pages.count < 1000 { state.pages.append(page) }
        }
    }

    func noteOutOfScope(_ url: String) {
        state.withLock { state in
            if state.outOfScope.count < 500, state.outOfScopeSeen.insert(url).inserted { state.outOfScope.append(url) }
        }
    }

    /// Keeps `notice` (what an OpenAPI document the target served left out), at most 100.
    func note(_ notice: String) {
        state.withLock { state in
            if state.notices.count < 100 { state.notices.append(notice) }
        }
    }

    var notices: [String] { state.withLock { $0.notices } }
    var pageCount: Int { state.withLock { $0.pagesTaken } }
    var endpoints: [Endpoint] { state.withLock { $0.endpoints } }
    var pages: [Exchange] { state.withLock { $0.pages } }
    var outOfScope: [String] { state.withLock { $0.outOfScope } }
}
