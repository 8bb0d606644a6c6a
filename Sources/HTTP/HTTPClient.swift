#if canImport(Glibc)
    import Glibc
#endif
import CCurl
import Foundation
import Support

extension SentinelError.Code {
    /// A request could not be completed (connection, timeout, size cap, TLS).
    public static let network = SentinelError.Code("network")
}

/// The libcurl client: `sentinel db update` downloads with it, and DAST and the GitHub and LLM
/// clients talk to their servers with it. Errors name the method and URL, never a header value
/// or the body.
public enum HTTPClient {
    /// Performs `request` and writes the body to `destination` (created or truncated, mode 0600).
    /// Any status is returned, not thrown; transport failures throw `SentinelError(.network)`
    /// naming the method and URL. On a throw the destination may hold a partial body: callers
    /// download to a temporary file.
    public static func get(_ request: HTTPRequest, to destination: String) throws -> HTTPResponse {
        let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SentinelError(.io, "\(destination): cannot open: \(Errno.current)", errno: .current) }
        defer { close(fd) }
        return try perform(request, into: HTTPTransfer(sink: .file(fd), maxBytes: request.maxBytes))
    }

    /// Performs `request` (any method, with its body) and returns the response with its body,
    /// at most `request.maxBytes` of it. Any status is returned, not thrown; transport failures
    /// and a body over the cap throw `SentinelError(.network)` naming the method and URL.
    /// Redirects are followed for GET and HEAD only: a body is never re-sent elsewhere.
    public static func send(_ request: HTTPRequest) throws -> (HTTPResponse, [UInt8]) {
        let transfer = HTTPTransfer(sink: .memory, maxBytes: request.maxBytes, truncate: request.truncateBody)
        var response = try perform(request, into: transfer)
        response.truncated = transfer.truncated
        return (response, transfer.data)
    }

    private static func perform(_ request: HTTPRequest, into transfer: HTTPTransfer) throws -> HTTPResponse {
        try validate(request)
        if let missing = sentinel_curl_load() {
            throw SentinelError(.network, "\(request.label): libcurl: \(String(cString: missing))")
        }
        guard let curl = sentinel_curl_easy_init() else {
            throw SentinelError(.network, "\(request.label): curl_easy_init failed")
        }
        defer { sentinel_curl_easy_cleanup(curl) }

        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { sentinel_curl_slist_free_all(headerList) }
        var headers = request.headers
        // An empty `Expect:` stops curl from waiting for a `100 Continue` before a larger body.
        if !request.body.isEmpty, !headers.keys.contains(where: { $0.lowercased() == "expect" }) { headers["Expect"] = "" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            headerList = sentinel_curl_slist_append(headerList, "\(name): \(value)")
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        errorBuffer.initialize(to: 0)

        let redirects =
            request.followRedirects && (request.method == "GET" || request.method == "HEAD") && request.body.isEmpty
        var setup = [CURLcode]()
        setup.append(sentinel_curl_set_string(curl, CURLOPT_URL, request.url))
        // Only HTTP(S), also after redirects: a server must not send us to file:// or gopher://.
        setup.append(sentinel_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"))
        setup.append(sentinel_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, redirects ? 1 : 0))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_MAXREDIRS, 5))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_NOSIGNAL, 1))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_TIMEOUT_MS, Int(request.timeout * 1000)))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000)))
        if !request.truncateBody {
            setup.append(sentinel_curl_set_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes)))
        }
        setup.append(sentinel_curl_set_string(curl, CURLOPT_USERAGENT, "sentinel"))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_HTTPHEADER, headerList))
        setup.append(sentinel_curl_set_callback(curl, CURLOPT_WRITEFUNCTION, HTTPTransfer.body))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_WRITEDATA, context))
        setup.append(sentinel_curl_set_callback(curl, CURLOPT_HEADERFUNCTION, HTTPTransfer.header))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_HEADERDATA, context))
        if let proxy = request.proxy {
            setup.append(sentinel_curl_set_string(curl, CURLOPT_PROXY, proxy))
            setup.append(sentinel_curl_set_string(curl, CURLOPT_NOPROXY, ""))
        }
        setup += setMethodAndBody(curl, request)
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw SentinelError(
                .network, "\(request.label): curl_easy_setopt failed: \(String(cString: sentinel_curl_easy_strerror(failed)))")
        }

        let result = withExtendedLifetime(transfer) { sentinel_curl_easy_perform(curl) }
        if let failure = transfer.failure { throw SentinelError(.network, "\(request.label): \(failure)") }
        guard result == CURLE_OK || (transfer.truncated && result == CURLE_WRITE_ERROR) else {
            let detail = String(cString: errorBuffer)
            let text = detail.isEmpty ? String(cString: sentinel_curl_easy_strerror(result)) : detail
            if result == CURLE_FILESIZE_EXCEEDED {
                throw SentinelError(.network, "\(request.label): response larger than \(request.maxBytes) bytes")
            }
            throw SentinelError(.network, "\(request.label): \(text)")
        }
        var status = 0
        _ = sentinel_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: transfer.headers, bodyBytes: transfer.written)
    }

    /// GET without a body is curl's default; POST is curl's own; any other method (or a GET
    /// with a body) is sent as a custom request line. curl copies the body.
    private static func setMethodAndBody(_ curl: UnsafeMutableRawPointer, _ request: HTTPRequest) -> [CURLcode] {
        var setup = [CURLcode]()
        switch request.method {
        case "GET" where request.body.isEmpty: return []
        case "HEAD": return [sentinel_curl_set_long(curl, CURLOPT_NOBODY, 1)]
        case "POST": setup.append(sentinel_curl_set_long(curl, CURLOPT_POST, 1))
        default: setup.append(sentinel_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method))
        }
        guard request.method == "POST" || !request.body.isEmpty else { return setup }
        setup.append(sentinel_curl_set_offset(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
        if request.body.isEmpty {
            setup.append(sentinel_curl_set_string(curl, CURLOPT_COPYPOSTFIELDS, ""))
        } else {
            setup.append(
                request.body.withUnsafeBytes { raw in
                    sentinel_curl_set_pointer(curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
                })
        }
        return setup
    }

    /// Refuses a method that is not an HTTP token and header lines that would split in two
    /// (a CR or LF would let a value inject headers). Names the header, never its value.
    private static func validate(_ request: HTTPRequest) throws {
        let token = request.method.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
        guard token, !request.method.isEmpty else {
            throw SentinelError(.invalidInput, "\(request.url): the method is not an HTTP token")
        }
        for (name, value) in request.headers {
            let badName = name.isEmpty || name.utf8.contains { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 == 0x7f }
            if badName || value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
                throw SentinelError(.invalidInput, "\(request.label): header \(badName ? "name" : name) holds a forbidden character")
            }
        }
    }
}
