import Foundation
import HTTP
import Support
import Testing
import TestSupport

/// The libcurl client against a loopback server started in each test.
@Suite(.integration) struct HTTPClientTests {
    let directory = NSTemporaryDirectory() + "sentinel-http-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

    @Test func bodyToFileWithStatusHeadersAndValidators() throws {
        defer { cleanUp() }
        let server = try LoopbackHTTPServer { request in
            .init(
                status: 200, headers: [("ETag", "\"v1\""), ("Last-Modified", "Tue, 01 Jul 2025 10:00:00 GMT")],
                body: Array("hello \(request.path)".utf8))
        }
        defer { server.stop() }
        let file = directory + "/body"
        let response = try HTTPClient.get(
            HTTPRequest(url: server.baseURL + "/PyPI/all.zip", headers: ["If-None-Match": "\"v0\""]),
            to: file)
        #expect(response.status == 200)
        #expect(response.etag == "\"v1\"")
        #expect(response.lastModified == "Tue, 01 Jul 2025 10:00:00 GMT")
        #expect(response.bodyBytes == 19)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "hello /PyPI/all.zip")
        #expect(server.requests.first?.headers["if-none-match"] == "\"v0\"")
    }

    @Test func statusesAreReturnedNotThrown() throws {
        defer { cleanUp() }
        let server = try LoopbackHTTPServer { request in
            request.path == "/gone" ? .init(status: 304) : .init(status: 500, body: Array("boom".utf8))
        }
        defer { server.stop() }
        #expect(try HTTPClient.get(HTTPRequest(url: server.baseURL + "/gone"), to: directory + "/a").status == 304)
        let failed = try HTTPClient.get(HTTPRequest(url: server.baseURL + "/x"), to: directory + "/b")
        #expect(failed.status == 500 && failed.bodyBytes == 4)
    }

    @Test func sizeCapStopsTheTransfer() throws {
        defer { cleanUp() }
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: [UInt8](repeating: 65, count: 10_000)) }
        defer { server.stop() }
        let url = server.baseURL + "/big"
        #expect {
            try HTTPClient.get(HTTPRequest(url: url, maxBytes: 1_000), to: directory + "/big")
        } throws: { error in
            (error as? SentinelError)?.message == "GET \(url): response larger than 1000 bytes"
        }
    }

    @Test func cutOffTransferThrows() throws {
        defer { cleanUp() }
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: Array("partial".utf8), declaredLength: 100) }
        defer { server.stop() }
        #expect {
            try HTTPClient.get(HTTPRequest(url: server.baseURL + "/cut"), to: directory + "/cut")
        } throws: { error in
            (error as? SentinelError)?.code == .network
                && (error as? SentinelError)?.message.contains("93 bytes remaining") == true
        }
    }

    @Test func refusedConnectionNamesTheURL() throws {
        defer { cleanUp() }
        // A port that was just free: nothing listens there.
        let server = try LoopbackHTTPServer { _ in .init(status: 200) }
        let url = server.baseURL + "/x"
        server.stop()
        #expect {
            try HTTPClient.get(HTTPRequest(url: url, timeout: 30, connectTimeout: 10), to: directory + "/x")
        } throws: { error in
            (error as? SentinelError)?.message.hasPrefix("GET \(url): ") == true
        }
    }

    @Test func onlyHTTPSchemes() throws {
        defer { cleanUp() }
        #expect(throws: SentinelError.self) {
            try HTTPClient.get(HTTPRequest(url: "file:///etc/passwd"), to: directory + "/f")
        }
    }
}
