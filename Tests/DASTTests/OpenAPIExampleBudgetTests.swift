import DAST
import Documents
import Foundation
import HTTP
import Support
import Testing
import Web

@testable import DAST

/// Hostile inputs round 4, H17: an OpenAPI document names one large example from every
/// operation (through `$ref`s), and each request held its own serialised copy: a 1.7 MB
/// `/openapi.json` took the DAST worker past its 1 GiB limit. Examples are measured once written
/// out, `$ref`s expanded, against a bound per body, per parameter and per document; what passes
/// one is left out of its request and said in a notice.
@Suite struct OpenAPIExampleBudgetTests {
    /// `operations` POST operations whose body is `$ref` to one example of `exampleBytes`
    /// characters, one small operation, and one header parameter with a large example.
    static func amplifying(operations: Int, exampleBytes: Int) -> String {
        let big = String(repeating: "A", count: exampleBytes)
        let paths = (0..<operations).map { index in
            ##""/items/\##(index)": {"post": {"requestBody": {"$ref": "#/components/requestBodies/Big"}}}"##
        }
        let small =
            ##""/small": {"post": {"parameters": [{"name": "X-Big", "in": "header", "example": "\##(String(repeating: "H", count: 5000))"}], "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string", "example": "ok"}}}}}}}}"##
        return """
            {"openapi": "3.0.3", "paths": {\((paths + [small]).joined(separator: ", "))},
             "components": {
               "requestBodies": {"Big": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Big"}}}}},
               "schemas": {"Big": {"type": "object", "properties": {"data": {"$ref": "#/components/schemas/Data"}}},
                           "Data": {"type": "string", "example": "\(big)"}}}}
            """
    }

    @Test("a shared example over the body bound is sent with no request, and said once per operation")
    func overTheBodyBound() throws {
        let text = Self.amplifying(operations: 3, exampleBytes: 100_000)
        let document = try OpenAPIDocument.parse(bytes: Array(text.utf8), file: "api.json")
        let bodies = document.operations.map { $0.requestBody?.text ?? "-" }
        #expect(bodies == ["", "", "", #"{"name":"ok"}"#])
        #expect(document.operations.last?.parameters.first?.example == "sentinel")
        #expect(
            document.notices.contains(
                "api.json:1: POST /items/0: the request body's example is over 65536 bytes once written out; sent without it"),
            "\(document.notices)")
        #expect(
            document.notices.contains(
                "api.json:1: parameter 'X-Big': its example is over 4096 bytes once written out; 'sentinel' sent instead"))
    }

    @Test("examples under the body bound share the document's bound: past it, the rest go without, said once")
    func overTheDocumentBound() throws {
        // 100 bodies of 60 000 bytes: 6 MB written out, from a document of 75 KB.
        let text = Self.amplifying(operations: 100, exampleBytes: 60_000)
        #expect(text.utf8.count < 80_000)
        let document = try OpenAPIDocument.parse(bytes: Array(text.utf8), file: "api.json")
        let written = document.operations.reduce(0) { $0 + ($1.requestBody?.text.utf8.count ?? 0) }
        #expect(written <= ExampleBudget.maxDocumentBytes)
        #expect(document.operations.prefix(60).allSatisfy { $0.requestBody?.text.isEmpty == false })
        #expect(document.operations.dropFirst(70).dropLast().allSatisfy { $0.requestBody?.text.isEmpty == true })
        let spent = document.notices.filter { $0.contains("the examples of this document are over 4194304 bytes") }
        #expect(spent.count == 1, "\(document.notices)")
    }

    @Test("the measure stops at its bound however often a subtree is shared")
    func measureIsBounded() {
        let leaf = DocumentNode(.string(String(repeating: "x", count: 1000)), line: 1, column: 1)
        var node = leaf
        // 2^40 leaves once written out; the tree itself holds 40 nodes.
        for _ in 0..<40 { node = DocumentNode(.array([node, node]), line: 1, column: 1) }
        #expect(ExampleBudget.size(of: node, upTo: 1 << 20) == nil)
        #expect(ExampleBudget.size(of: leaf, upTo: 1 << 20) == 1002)
    }
}

/// The same document served by a fake target on 127.0.0.1 at `/openapi.json`: the scan reads it,
/// sends no oversized body, and its notices say what was left out.
@Suite(.integration) struct OpenAPIDiscoveryBudgetTests {
    @Test("a discovered /openapi.json's oversized examples are left out and reported, not sent")
    func discoveredDocumentIsBounded() throws {
        let document = OpenAPIExampleBudgetTests.amplifying(operations: 20, exampleBytes: 200_000)
        let server = try HTTPResponder(listening: try HTTPResponder.listeningSocket(address: "127.0.0.1"), threads: 2) { request in
            switch request?.path {
            case "/": return ResponderResponse(200, "OK", body: "<html><body><p>api</p></body></html>", contentType: "text/html")
            case "/openapi.json": return ResponderResponse(200, "OK", body: document, contentType: "application/json")
            default: return ResponderResponse(404, "Not Found", body: "no\n")
            }
        }
        defer { server.stop() }
        var options = WebScanOptions(target: "http://127.0.0.1:\(server.port)/")
        options.active = true
        options.ratePerSecond = 0
        options.maxRequests = 300
        let transport = RecordingTransport()
        let result = try WebScan(options: options, transport: transport).run()
        #expect(result.fatal == nil)
        #expect(transport.requests.contains { $0.url.string.hasSuffix("/openapi.json") })
        #expect(transport.requests.allSatisfy { $0.body.count < 65536 })
        #expect(
            result.notices.contains(
                "OpenAPI document /openapi.json:1: POST /items/0: the request body's example is over 65536 bytes once written out; sent without it"
            ), "\(result.notices)")
    }

    @Test("an --openapi document's notices are the scan's notices too")
    func givenDocumentNoticesAreReported() throws {
        let directory = try ScratchDirectory.make(prefix: "openapi")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/api.json"
        try OpenAPIExampleBudgetTests.amplifying(operations: 1, exampleBytes: 100_000).write(
            toFile: file, atomically: false, encoding: .utf8)
        let server = try HTTPResponder(listening: try HTTPResponder.listeningSocket(address: "127.0.0.1")) { _ in
            ResponderResponse(200, "OK", body: "<html><body>api</body></html>", contentType: "text/html")
        }
        defer { server.stop() }
        var options = WebScanOptions(target: "http://127.0.0.1:\(server.port)/")
        (options.api, options.apiNotices) = try APISeeds.loadWithNotices(path: file, base: WebURL(options.target)!)
        options.ratePerSecond = 0
        options.maxRequests = 50
        let result = try WebScan(options: options).run()
        #expect(
            result.notices.contains(
                "OpenAPI document \(file):1: POST /items/0: the request body's example is over 65536 bytes once written out; sent without it"
            ),
            "\(result.notices)")
    }
}
