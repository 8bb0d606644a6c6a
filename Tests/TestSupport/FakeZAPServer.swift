import Foundation
import Synchronization

/// A fake ZAP JSON API on 127.0.0.1: `core/view/version`, `core/action/accessUrl`, the spider
/// and active scanner (`action/scan`, `view/status`, `action/stop`), `pscan/view/recordsToScan`
/// and `core/view/alerts` with `baseurl`, `start` and `count`. It checks the `X-ZAP-API-Key`
/// header as ZAP does (HTTP 400 `{"code":"bad_api_key"}`), records every call, and answers a
/// scan's status polls from a script (`[40, 100]`: 40 on the first poll, 100 from then on).
/// Knobs replace the answer of any step (garbage, a 500, `{"code":"url_not_found"}`).
public final class FakeZAPServer: Sendable {
    /// One API call received.
    public struct Call: Sendable, Hashable {
        /// `component/type/name`, e.g. `spider/view/status`.
        public var step: String
        /// The query parameters, decoded.
        public var parameters: [String: String]
        /// The `X-ZAP-API-Key` header as received (nil when absent).
        public var apiKey: String?
    }

    /// ZAP's version string it reports.
    public static let version = "2.15.0"

    /// The loopback server underneath.
    public let server: LoopbackHTTPServer
    private let state: Store

    /// The mutable state, shared with the server's handler.
    private final class Store: Sendable {
        let mutex: Mutex<State>
        init(_ state: State) { mutex = Mutex(state) }
    }

    private struct State {
        var apiKey: String?
        var alerts: [[String: String]]
        var spiderProgress: [Int]
        var activeProgress: [Int]
        var passiveRecords: [Int]
        var overrides: [String: LoopbackHTTPServer.Response] = [:]
        var calls: [Call] = []
        var polls: [String: Int] = [:]
        var nextScanId = 0
    }

    /// Serves requests bearing `apiKey` (nil: no key needed).
    /// - Parameters:
    ///   - alerts: full alert objects (ZAP writes every field as a string).
    ///   - spiderProgress: statuses the spider reports on successive polls (the last repeats).
    ///   - activeProgress: the same for the active scanner.
    ///   - passiveRecords: `recordsToScan` on successive polls (the last repeats).
    public init(
        apiKey: String?, alerts: [[String: String]] = [], spiderProgress: [Int] = [40, 100],
        activeProgress: [Int] = [30, 100], passiveRecords: [Int] = [0]
    ) throws {
        let state = Store(
            State(
                apiKey: apiKey, alerts: alerts, spiderProgress: spiderProgress, activeProgress: activeProgress,
                passiveRecords: passiveRecords))
        self.state = state
        server = try LoopbackHTTPServer { request in
            state.mutex.withLock { FakeZAPServer.answer(request, state: &$0) }
        }
    }

    deinit { server.stop() }

    /// Stops the server.
    public func stop() { server.stop() }

    /// The API base URL (`http://127.0.0.1:PORT`).
    public var apiURL: String { server.baseURL }
    /// Every API call, in order.
    public var calls: [Call] { state.mutex.withLock { $0.calls } }
    /// The steps called, in order.
    public var steps: [String] { calls.map(\.step) }
    /// The raw requests.
    public var requests: [LoopbackHTTPServer.Request] { server.requests }

    /// Answers `step` (`spider/action/scan`) with `response` instead of the normal answer.
    public func override(_ step: String, with response: LoopbackHTTPServer.Response) {
        state.mutex.withLock { $0.overrides[step] = response }
    }

    /// A JSON response with `status`.
    public static func json(_ text: String, status: Int = 200) -> LoopbackHTTPServer.Response {
        LoopbackHTTPServer.Response(
            status: status, headers: [("Content-Type", "application/json; charset=UTF-8")], body: Array(text.utf8))
    }

    private static func answer(_ request: LoopbackHTTPServer.Request, state: inout State) -> LoopbackHTTPServer.Response {
        let (path, query) = split(request.path)
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 4, parts[0] == "JSON" else {
            return json(#"{"code":"bad_type","message":"Bad type"}"#, status: 400)
        }
        let step = parts[1...3].joined(separator: "/")
        state.calls.append(Call(step: step, parameters: query, apiKey: request.headers["x-zap-api-key"]))
        if let key = state.apiKey, request.headers["x-zap-api-key"] != key {
            return json(#"{"code":"bad_api_key","message":"Missing or invalid API key"}"#, status: 400)
        }
        if let response = state.overrides[step] { return response }
        switch step {
        case "core/view/version": return json(#"{"version":"\#(version)"}"#)
        case "core/action/accessUrl", "spider/action/stop", "ascan/action/stop": return json(#"{"Result":"OK"}"#)
        case "spider/action/scan", "ascan/action/scan":
            guard query["url"]?.isEmpty == false else {
                return json(#"{"code":"missing_parameter","message":"Missing Parameter (url)"}"#, status: 400)
            }
            defer { state.nextScanId += 1 }
            return json(#"{"scan":"\#(state.nextScanId)"}"#)
        case "spider/view/status", "ascan/view/status":
            let script = step.hasPrefix("spider") ? state.spiderProgress : state.activeProgress
            return json(#"{"status":"\#(next(script, key: step, state: &state))"}"#)
        case "pscan/view/recordsToScan":
            return json(#"{"recordsToScan":"\#(next(state.passiveRecords, key: step, state: &state))"}"#)
        case "core/view/alerts": return alerts(query, state: state)
        default: return json(#"{"code":"bad_view","message":"No such view"}"#, status: 400)
        }
    }

    /// The script's value for this poll (the last one repeats).
    private static func next(_ script: [Int], key: String, state: inout State) -> Int {
        let index = state.polls[key, default: 0]
        state.polls[key] = index + 1
        return script.isEmpty ? 100 : script[min(index, script.count - 1)]
    }

    private static func alerts(_ query: [String: String], state: State) -> LoopbackHTTPServer.Response {
        let base = query["baseurl"] ?? ""
        let matching = state.alerts.filter { base.isEmpty || ($0["url"] ?? "").hasPrefix(base) }
        let start = max(0, Int(query["start"] ?? "") ?? 0)
        let count = Int(query["count"] ?? "") ?? 0
        let page = Array(matching.dropFirst(start).prefix(count > 0 ? count : Int.max))
        let data = (try? JSONSerialization.data(withJSONObject: ["alerts": page], options: [.sortedKeys])) ?? Data()
        return LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")], body: Array(data))
    }

    private static func split(_ target: String) -> (String, [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let name = halves[0].removingPercentEncoding ?? halves[0]
            let value = halves.count > 1 ? halves[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" : ""
            query[name] = value
        }
        return (String(target[..<mark]), query)
    }

    /// A full ZAP alert object as `core/view/alerts` returns it, every field a string; the
    /// arguments override the defaults (a Medium, Medium-confidence CSP alert).
    public static func alert(_ fields: [String: String] = [:]) -> [String: String] {
        let base: [String: String] = [
            "sourceid": "3", "other": "", "method": "GET", "evidence": "", "pluginId": "10038",
            "cweid": "693", "confidence": "Medium", "wascid": "15",
            "description": "Content Security Policy (CSP) is an added layer of security.", "messageId": "1",
            "inputVector": "", "url": "http://127.0.0.1:8080/", "tags": "",
            "reference":
                "https://developer.mozilla.org/en-US/docs/Web/HTTP/CSP\nhttps://owasp.org/www-community/controls/Content_Security_Policy",
            "solution": "Ensure that your web server sets the Content-Security-Policy header.",
            "alert": "Content Security Policy (CSP) Header Not Set", "param": "", "attack": "",
            "name": "Content Security Policy (CSP) Header Not Set", "risk": "Medium", "id": "0", "alertRef": "10038-1",
        ]
        return base.merging(fields) { _, new in new }
    }
}
