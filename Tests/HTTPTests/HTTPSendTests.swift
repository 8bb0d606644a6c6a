import Foundation
import HTTP
import Support
import Testing
import TestSupport

/// `HTTPClient.send`: any method with a body, the response body in memory, against a loopback server.
@Suite(.integration) struct HTTPSendTests {
    @Test(arguments: ["POST", "PUT", "PATCH"])
    func bodyArrivesIntactAndTheResponseBodyComesBack(method: String) throws {
        // Every byte value, NULs included, and more than one socket read's worth.
        let body = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try LoopbackHTTPServer { request in
            .init(status: 201, headers: [("X-Seen", "\(request.body.count)")], body: Array("got \(request.method)".utf8))
        }
        defer { server.stop() }
        let (response, reply) = try HTTPClient.send(
            HTTPRequest(
                url: server.baseURL + "/v1/things", method: method, headers: ["Content-Type": "application/octet-stream"],
                body: body))
        #expect(response.status == 201)
        #expect(response.header("x-seen") == "70000")
        #expect(String(decoding: reply, as: UTF8.self) == "got \(method)")
        #expect(response.bodyBytes == Int64(reply.count))
        let received = try #require(server.requests.first)
        #expect(received.method == method && received.path == "/v1/things")
        #expect(received.body == body)
        #expect(received.headers["content-type"] == "application/octet-stream")
        #expect(received.headers["expect"] == nil)
    }

    @Test func emptyPostAndPlainGet() throws {
        let server = try LoopbackHTTPServer { request in .init(status: 200, body: Array(request.method.utf8)) }
        defer { server.stop() }
        let (_, posted) = try HTTPClient.send(HTTPRequest(url: server.baseURL + "/p", method: "POST"))
        let (_, got) = try HTTPClient.send(HTTPRequest(url: server.baseURL + "/g"))
        #expect(posted == Array("POST".utf8) && got == Array("GET".utf8))
        #expect(server.requests.map(\.body) == [[], []])
        #expect(server.requests.first?.headers["content-length"] == "0")
    }

    @Test func statusesAreReturnedWithTheirBody() throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 429, headers: [("Retry-After", "3")], body: Array("slow".utf8)) }
        defer { server.stop() }
        let (response, body) = try HTTPClient.send(HTTPRequest(url: server.baseURL + "/", method: "POST", body: [1]))
        #expect(response.status == 429 && response.header("retry-after") == "3")
        #expect(body == Array("slow".utf8))
    }

    @Test func capOnTheResponseBody() throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: [UInt8](repeating: 65, count: 10_000)) }
        defer { server.stop() }
        let url = server.baseURL + "/big"
        #expect {
            try HTTPClient.send(HTTPRequest(url: url, method: "POST", body: Array("{}".utf8), maxBytes: 1_000))
        } throws: { error in
            (error as? SentinelError)?.message == "POST \(url): response larger than 1000 bytes"
        }
    }

    @Test func timeoutNamesMethodAndURL() throws {
        // The handler holds the answer until the client has given up (no sleeping on a clock).
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            _ = release.wait(timeout: .now() + 20)
            return .init(status: 200)
        }
        defer { server.stop() }
        defer { release.signal() }
        let url = server.baseURL + "/slow"
        #expect {
            try HTTPClient.send(HTTPRequest(url: url, method: "POST", body: [1, 2, 3], timeout: 0.3))
        } throws: { error in
            (error as? SentinelError)?.code == .network && (error as? SentinelError)?.message.hasPrefix("POST \(url): ") == true
        }
    }

    @Test func headerValuesNeverAppearInErrorsOrDescriptions() throws {
        let secret = "sk-test-0123456789abcdef"
        let server = try LoopbackHTTPServer { _ in .init(status: 200) }
        let url = server.baseURL + "/x"
        server.stop()  // nothing listens there now: the request fails
        let request = HTTPRequest(
            url: url, method: "POST", headers: ["Authorization": "Bearer \(secret)"], body: Array(secret.utf8),
            connectTimeout: 5)
        var thrown = ""
        do { _ = try HTTPClient.send(request) } catch { thrown = "\(error)" }
        #expect(thrown.hasPrefix("POST \(url): "))
        var dumped = ""
        dump(request, to: &dumped)
        for text in [thrown, String(describing: request), String(reflecting: request), dumped] {
            #expect(!text.contains(secret))
        }
        #expect(String(describing: request).contains("Authorization"))
    }

    @Test(arguments: [["X-Bad": "a\r\nInjected: 1"], ["Bad Name": "v"], ["": "v"]])
    func headersThatWouldSplitAreRefused(headers: [String: String]) throws {
        #expect {
            try HTTPClient.send(HTTPRequest(url: "http://127.0.0.1:9/", method: "POST", headers: headers))
        } throws: { error in
            (error as? SentinelError)?.code == .invalidInput && !"\(error)".contains("Injected")
        }
    }

    @Test func methodMustBeAToken() throws {
        #expect(throws: SentinelError.self) {
            try HTTPClient.send(HTTPRequest(url: "http://127.0.0.1:9/", method: "GET / HTTP/1.1\r\nX: y"))
        }
    }
}
