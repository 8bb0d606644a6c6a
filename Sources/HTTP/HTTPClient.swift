#if canImport(Glibc)
    import Glibc
#endif
import CCurl
import Foundation
import Support

/// One GET whose body goes to a file: what `sentinel db update` needs, and later DAST and the
/// GitHub and LLM clients. The body is written to `destination` as it arrives and capped at
/// `maxBytes`, so a hostile or broken server cannot fill the disk.
public struct HTTPRequest: Sendable, Hashable {
    /// The absolute URL to fetch.
    public var url: String
    /// Extra request headers (`If-None-Match`, `Accept`).
    public var headers: [String: String]
    /// The whole transfer's limit, seconds.
    public var timeout: Double
    /// The limit for establishing the connection, seconds.
    public var connectTimeout: Double
    /// The largest body accepted; a larger one fails the request.
    public var maxBytes: Int64

    /// Makes a GET request for `url` with the given headers and limits (seconds, bytes).
    public init(
        url: String, headers: [String: String] = [:], timeout: Double = 300, connectTimeout: Double = 30,
        maxBytes: Int64 = 1 << 30
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBytes = maxBytes
    }
}

/// The status line and headers of the final response (after redirects).
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code of the final response, e.g. 200 or 304.
    public var status: Int
    /// Header lines in order, names as sent.
    public var headers: [HTTPHeader]
    /// Body bytes written to the destination.
    public var bodyBytes: Int64

    /// The first header named `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The `ETag` header, or nil when the server sent none.
    public var etag: String? { header("ETag") }
    /// The `Last-Modified` header, or nil when the server sent none.
    public var lastModified: String? { header("Last-Modified") }
}

/// One response header.
public struct HTTPHeader: Sendable, Hashable {
    /// The header's name, as sent (compare case-insensitively).
    public var name: String
    /// The header's value, as sent.
    public var value: String
}

extension SentinelError.Code {
    /// A request could not be completed (connection, timeout, size cap, TLS).
    public static let network = SentinelError.Code("network")
}

/// The libcurl client.
public enum HTTPClient {
    /// Performs `request` and writes the body to `destination` (created or truncated, mode 0600).
    /// Any status is returned, not thrown; transport failures throw `SentinelError(.network)`
    /// naming the URL. On a throw the destination may hold a partial body: callers download to
    /// a temporary file.
    public static func get(_ request: HTTPRequest, to destination: String) throws -> HTTPResponse {
        let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw SentinelError(.io, "\(destination): cannot open: \(Errno.current)", errno: .current) }
        defer { close(fd) }
        guard let curl = curl_easy_init() else { throw SentinelError(.network, "GET \(request.url): curl_easy_init failed") }
        defer { curl_easy_cleanup(curl) }

        let transfer = Transfer(fd: fd, maxBytes: request.maxBytes)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        errorBuffer.initialize(to: 0)

        var setup = [CURLcode]()
        setup.append(sentinel_curl_set_string(curl, CURLOPT_URL, request.url))
        // Only HTTP(S), also after redirects: a server must not send us to file:// or gopher://.
        setup.append(sentinel_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https"))
        setup.append(sentinel_curl_set_string(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_MAXREDIRS, 5))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_NOSIGNAL, 1))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_TIMEOUT_MS, Int(request.timeout * 1000)))
        setup.append(sentinel_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000)))
        setup.append(sentinel_curl_set_offset(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes)))
        setup.append(sentinel_curl_set_string(curl, CURLOPT_USERAGENT, "sentinel"))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_HTTPHEADER, headerList))
        setup.append(sentinel_curl_set_callback(curl, CURLOPT_WRITEFUNCTION, Transfer.body))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_WRITEDATA, context))
        setup.append(sentinel_curl_set_callback(curl, CURLOPT_HEADERFUNCTION, Transfer.header))
        setup.append(sentinel_curl_set_pointer(curl, CURLOPT_HEADERDATA, context))
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw SentinelError(.network, "GET \(request.url): curl_easy_setopt failed: \(String(cString: curl_easy_strerror(failed)))")
        }

        let result = withExtendedLifetime(transfer) { curl_easy_perform(curl) }
        if let failure = transfer.failure { throw SentinelError(.network, "GET \(request.url): \(failure)") }
        guard result == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let text = detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail
            if result == CURLE_FILESIZE_EXCEEDED {
                throw SentinelError(.network, "GET \(request.url): response larger than \(request.maxBytes) bytes")
            }
            throw SentinelError(.network, "GET \(request.url): \(text)")
        }
        var status = 0
        _ = sentinel_curl_get_long(curl, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: transfer.headers, bodyBytes: transfer.written)
    }
}

/// State the C callbacks reach through their context pointer.
private final class Transfer {
    let fd: Int32
    let maxBytes: Int64
    var written: Int64 = 0
    var headers: [HTTPHeader] = []
    /// Why a callback stopped the transfer (curl then reports a generic write error).
    var failure: String?

    init(fd: Int32, maxBytes: Int64) {
        self.fd = fd
        self.maxBytes = maxBytes
    }

    static let body: sentinel_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        // A server without Content-Length is caught here, as it streams past the cap.
        guard transfer.written + Int64(length) <= transfer.maxBytes else {
            transfer.failure = "response larger than \(transfer.maxBytes) bytes"
            return 0
        }
        if let error = writeAll(transfer.fd, UnsafeRawBufferPointer(start: data, count: length)) {
            transfer.failure = "cannot write the body: \(error)"
            return 0
        }
        transfer.written += Int64(length)
        return length
    }

    static let header: sentinel_curl_data_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            transfer.headers = []  // a new response (after a redirect or a 100 Continue)
        } else if let colon = line.firstIndex(of: ":") {
            transfer.headers.append(
                HTTPHeader(
                    name: String(line[..<colon]),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return length
    }
}
