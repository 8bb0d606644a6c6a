import Dispatch
import Foundation
import HTTP
import Support

/// `WebTransport` over libcurl (`HTTPClient.send`): redirects off, bodies cut at `maxBodyBytes`
/// rather than failing, an explicit proxy when one is given (inside the sandbox: the egress proxy,
/// the only way out).
public struct CurlTransport: WebTransport {
    /// `http://127.0.0.1:3128` inside the sandbox; nil to connect directly.
    public var proxy: String?
    /// Seconds one request may take in all (a target that hangs or drips costs this much).
    public var timeout: Double
    /// Seconds to establish the connection.
    public var connectTimeout: Double
    /// The largest body kept of one response.
    public var maxBodyBytes: Int64

    /// A transport with the given limits (seconds, bytes).
    public init(proxy: String? = nil, timeout: Double = 10, connectTimeout: Double = 5, maxBodyBytes: Int64 = 2 << 20) {
        self.proxy = proxy
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBodyBytes = maxBodyBytes
    }

    /// How the egress proxy's own answers start.
    static let proxyPrefix = "sentinel egress: "

    /// Sends `request`; see `WebTransport`.
    public func send(_ request: WebRequest) throws -> WebResponse {
        var headers: [String: String] = [:]
        for header in request.headers { headers[header.name] = header.value }
        var http = HTTPRequest(
            url: request.url.string, method: request.method, headers: headers, body: request.body,
            timeout: timeout, connectTimeout: connectTimeout, maxBytes: maxBodyBytes)
        http.followRedirects = false
        http.truncateBody = true
        http.proxy = proxy
        let started = DispatchTime.now().uptimeNanoseconds
        let (response, body) = try HTTPClient.send(http)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // The egress proxy answers for a target it could not reach (or may not): that is no
        // answer from the target, and the scan must say so rather than scan the proxy's page.
        if proxy != nil, [403, 502, 503, 504].contains(response.status), body.starts(with: Array(Self.proxyPrefix.utf8)) {
            let reason = String(decoding: body.dropFirst(Self.proxyPrefix.utf8.count).prefix(300), as: UTF8.self)
            throw SentinelError(.network, "\(request.method) \(request.url): \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return WebResponse(
            status: response.status, headers: response.headers, body: body, elapsed: elapsed, truncated: response.truncated)
    }
}
