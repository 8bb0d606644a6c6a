import Documents
import Foundation
import HTTP
import Support

/// A client for ZAP's JSON API (`<api>/JSON/<component>/<view|action>/<name>/?params`), the
/// API key sent in the `X-ZAP-API-Key` header and never anywhere else: not in the URL, not in
/// any error, `description` or mirror. Every answer is read as hostile input: bounded in size,
/// parsed strictly, and ZAP's own words are redacted and cut before they reach a message.
///
/// Errors are `SentinelError(.toolFailed)`, one line starting `zap: `: an API that cannot be
/// reached, a refused key, a step ZAP reports as failed (`{"code":"url_not_found"}`), an
/// answer that is not the JSON expected.
public struct ZAPClient: Sendable {
    /// The API's base URL as given, without a trailing slash (`http://127.0.0.1:8090`).
    public let apiURL: String
    /// Limit for one API call, seconds.
    public var requestTimeout: Double
    /// Limit for connecting to the API, seconds.
    public var connectTimeout: Double
    /// The largest answer accepted from one call, bytes.
    public var maxResponseBytes: Int64
    /// Sends the requests.
    public var transport: any ZAPTransport
    private let apiKey: String?

    /// A client for the API at `apiURL` (http or https, no query, no fragment, no user info).
    /// - Parameters:
    ///   - apiKey: the key ZAP requires (`nil` or empty: none is sent).
    ///   - requestTimeout: seconds one call may take.
    ///   - connectTimeout: seconds connecting may take.
    ///   - maxResponseBytes: the largest answer read.
    /// - Throws: `SentinelError(.invalidInput)` naming `apiURL` when it is not such a URL.
    public init(
        apiURL: String, apiKey: String?, requestTimeout: Double = 60, connectTimeout: Double = 10,
        maxResponseBytes: Int64 = 32 << 20, transport: any ZAPTransport = ZAPHTTPTransport()
    ) throws {
        var trimmed = apiURL.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let parts = URLComponents(string: trimmed), let scheme = parts.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty,
            parts.query == nil, parts.fragment == nil, parts.user == nil, parts.password == nil
        else {
            throw SentinelError(
                .invalidInput, "\(apiURL): not a ZAP API URL (expected http://HOST:PORT, without query or credentials)")
        }
        self.apiURL = trimmed
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.maxResponseBytes = maxResponseBytes
        self.transport = transport
    }

    /// Calls `step` (`core/view/version`, `spider/action/scan`) with `parameters` (sent in the
    /// query, in order) and returns the answer's JSON object.
    public func call(_ step: String, _ parameters: [(String, String)] = []) throws -> DocumentNode {
        let query = parameters.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        var headers = ["Accept": "application/json"]
        if let apiKey { headers["X-ZAP-API-Key"] = apiKey }
        let request = HTTPRequest(
            url: "\(apiURL)/JSON/\(step)/" + (query.isEmpty ? "" : "?" + query), headers: headers,
            timeout: requestTimeout, connectTimeout: connectTimeout, maxBytes: maxResponseBytes)
        let response: HTTPResponse
        let body: [UInt8]
        do {
            (response, body) = try transport.send(request)
        } catch {
            throw transportFailure(error, step: step, request: request)
        }
        return try ZAPAnswer.read(status: response.status, body: body, step: step, apiURL: apiURL, secret: apiKey)
    }

    /// Removes the request's own `METHOD URL: ` prefix from a transport error and names the API.
    private func transportFailure(_ error: any Error, step: String, request: HTTPRequest) -> SentinelError {
        var reason = (error as? SentinelError)?.message ?? String(describing: error)
        let label = "\(request.method) \(request.url): "
        if reason.hasPrefix(label) { reason.removeFirst(label.count) }
        reason = ZAPText.oneLine(reason, limit: 200, secret: apiKey)
        if reason.hasPrefix("response larger than") {
            return SentinelError(.toolFailed, "zap: \(step): the ZAP API at \(apiURL) sent an answer \(reason.dropFirst(9))")
        }
        return SentinelError(.toolFailed, "zap: cannot reach the ZAP API at \(apiURL): \(reason)")
    }

    /// RFC 3986 unreserved characters stay; everything else is percent-encoded (so `&`, `=`,
    /// `+` and `#` in a target URL reach ZAP intact).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

extension ZAPClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `ZAPClient(<api URL>)`: never the key.
    public var description: String { "ZAPClient(\(apiURL))" }
    /// Same as `description`.
    public var debugDescription: String { description }
    /// `dump` and debuggers see the URL, limits and whether a key is set, never the key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "apiURL": apiURL, "hasAPIKey": apiKey != nil, "requestTimeout": requestTimeout,
                "connectTimeout": connectTimeout, "maxResponseBytes": maxResponseBytes,
            ], displayStyle: .struct)
    }
}
