#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for tests: one connection at a time,
/// `Connection: close`, answers from a handler. Started by the test, stopped after it.
public final class LoopbackHTTPServer: Sendable {
    /// What the server received.
    public struct Request: Sendable, Hashable {
        /// `GET`, `HEAD`, ...
        public var method: String
        /// The request target as sent (path and query).
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
        /// The body: `Content-Length` bytes after the headers (empty without one).
        public var body: [UInt8] = []

        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// What it sends back. `declaredLength` larger than the body makes a connection that closes
    /// early (a transfer cut off mid-body).
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// Headers in the order sent.
        public var headers: [(String, String)]
        /// The bytes sent after the headers.
        public var body: [UInt8]
        /// The `Content-Length` to claim; nil: the body's own length.
        public var declaredLength: Int?

        /// A response; see the properties.
        public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], declaredLength: Int? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.declaredLength = declaredLength
        }
    }

    /// The port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let received = Mutex<[Request]>([])
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Every request so far, in order.
    public var requests: [Request] { received.withLock { $0 } }

    /// Starts listening on an ephemeral loopback port; `handler` answers each request.
    public init(handler: @escaping @Sendable (Request) -> Response) throws {
        TestTier.startingServer("a loopback HTTP server")
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Stops accepting and waits for the serving thread to end.
    public func stop() {
        let already = stopped.withLock { value -> Bool in
            defer { value = true }
            return value
        }
        guard !already else { return }
        finished.wait()
        close(listener)
    }

    deinit { stop() }

    private func serve() {
        defer { finished.signal() }
        while !stopped.withLock({ $0 }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        // Far beyond any stall of a loaded machine: a request given up on is closed unread, a
        // reset the client reports as the product's failure (CI failed one ZAP test so).
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.headerEnd == nil, data.count < 65_536 {
            let count = Self.receive(client, into: &buffer, upTo: buffer.count)
            guard count > 0 else { return }
            data += buffer[0..<count]
        }
        guard let headerEnd = data.headerEnd else { return }
        let text = String(decoding: data[..<headerEnd], as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return }
        var headers = [String: String]()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // The body is what Content-Length announces (capped: this is a test server).
        let length = min(Int(headers["content-length"] ?? "") ?? 0, 16 << 20)
        var body = Array(data[(headerEnd + 4)...])
        while body.count < length {
            let count = Self.receive(client, into: &buffer, upTo: min(buffer.count, length - body.count))
            guard count > 0 else { break }
            body += buffer[0..<count]
        }
        let request = Request(
            method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: Array(body.prefix(length)))
        received.withLock { $0.append(request) }
        let response = handler(request)
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.declaredLength ?? response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + (request.method == "HEAD" ? [] : response.body)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent == -1, errno == EINTR { continue }
                if sent <= 0 { return }
                offset += sent
            }
        }
        shutdown(client, Int32(SHUT_WR))
    }

    /// `recv` retried on EINTR: a socket with `SO_RCVTIMEO` is never restarted after a signal
    /// handler runs (signal(7)), and a dropped request is a reset the client reports.
    private static func receive(_ client: Int32, into buffer: inout [UInt8], upTo count: Int) -> Int {
        while true {
            let received = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress!, count, 0) }
            if received == -1, errno == EINTR { continue }
            return received
        }
    }

    private static func reason(_ status: Int) -> String {
        [
            200: "OK", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
        ][status] ?? "Status"
    }
}

extension Array where Element == UInt8 {
    /// The index of the `\r\n\r\n` that ends the headers, nil until it has arrived.
    fileprivate var headerEnd: Int? {
        guard count >= 4 else { return nil }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return i
        }
        return nil
    }
}
