import Foundation
import HTTP
import Support
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The request line `HTTPResponder` hands its handler: three parts, `HTTP/` last, a target that
/// starts with `/`; anything else is nil (and the handler decides: metrics says 400).
@Suite struct ResponderRequestTests {
    @Test(arguments: [
        ("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", "GET", "/metrics"),
        ("POST /a?b=c HTTP/1.0\n\n", "POST", "/a?b=c"),
    ])
    func aRequestLineIsRead(head: String, method: String, target: String) throws {
        let request = try #require(ResponderRequest(head: Array(head.utf8)))
        #expect(request.method == method)
        #expect(request.target == target)
        #expect(request.path == Substring(target.split(separator: "?")[0]))
    }

    @Test(arguments: ["", "\r\n\r\n", "GET /x\r\n\r\n", "GET x HTTP/1.1\r\n\r\n", "GET  /x HTTP/1.1\r\n\r\n", "GET /x FTP/1\r\n\r\n"])
    func anythingElseIsNil(head: String) {
        #expect(ResponderRequest(head: Array(head.utf8)) == nil)
    }
}

/// `HTTPResponder` on loopback: a fixed number of serving threads, however many clients connect,
/// and each connection bounded in time, so silent clients delay an answer but never stop it.
@Suite(.integration) struct HTTPResponderTests {
    private func responder(threads: Int) throws -> HTTPResponder {
        try HTTPResponder(listening: try HTTPResponder.listeningSocket(address: "127.0.0.1"), threads: threads) { request in
            guard let request else { return ResponderResponse(400, "Bad Request", body: "bad\n") }
            return ResponderResponse(200, "OK", body: "you asked \(request.method) \(request.target)\n", headers: ["X-Test: 1"])
        }
    }

    @Test func anAnswerIsHTTP10WithItsLengthAndTheConnectionClosed() throws {
        let server = try responder(threads: 1)
        defer { server.stop() }
        let response = try RawHTTPClient.exchange(port: server.port, "GET /x?y=1 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(
            response
                == "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 21\r\nX-Test: 1\r\nConnection: close\r\n\r\n"
                + "you asked GET /x?y=1\n")
        let bad = try RawHTTPClient.exchange(port: server.port, "nonsense\r\n\r\n")
        #expect(bad.hasPrefix("HTTP/1.0 400 Bad Request\r\n"))
    }

    @Test func silentClientsBeyondItsThreadsDelayAnAnswerButDoNotStopIt() throws {
        let server = try responder(threads: 2)
        defer { server.stop() }
        // Five connections that never send a byte: each holds a serving thread for at most two
        // seconds, then the request behind them is answered.
        let silent = try (0..<5).map { _ in try RawHTTPClient.connect(port: server.port) }
        defer { silent.forEach { close($0) } }
        let fd = try RawHTTPClient.connect(port: server.port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        RawHTTPClient.send(fd, Array("GET /after HTTP/1.0\r\n\r\n".utf8))
        let response = String(decoding: RawHTTPClient.readToEnd(fd), as: UTF8.self)
        #expect(response.hasSuffix("you asked GET /after\n"))
        // The silent ones were dropped with nothing sent: the deadline bounds the whole read.
        for fd in silent { #expect(RawHTTPClient.readToEnd(fd).isEmpty) }
    }

    @Test func onlyLoopbackUnlessAskedAndAStoppedServerFreesItsPort() throws {
        #expect(throws: SentinelError.self) { try HTTPResponder.listeningSocket(address: "0.0.0.0") }
        #expect(throws: SentinelError.self) { try HTTPResponder.listeningSocket(address: "localhost", loopbackOnly: false) }
        let server = try responder(threads: 3)
        let port = server.port
        server.stop()
        server.stop()
        #expect(throws: (any Error).self) { try RawHTTPClient.connect(port: port) }
    }
}
