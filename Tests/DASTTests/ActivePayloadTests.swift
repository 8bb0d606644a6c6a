@testable import DAST
@testable import Web
import Documents
import Foundation
import Testing

/// The pieces the active checks build payloads and judgements from.
struct ActivePayloadTests {
    @Test func thePickleSentIsADictOfStringsWithTheOriginalsKeys() throws {
        // pickle.dumps({'theme': 'dark'}, protocol=4)
        let original: [UInt8] = Array(Data(base64Encoded: "gASVFQAAAAAAAAB9lIwFdGhlbWWUjARkYXJrlHMu")!)
        #expect(PickleWriter.strings(in: original) == ["theme", "dark"])
        let written = PickleWriter.dictionary(keys: ["theme"], value: "sntmarker")
        #expect(written.starts(with: [0x80, 0x02, 0x7D, 0x28]))
        #expect(written.last == 0x2E)
        // Only string, dict and stack opcodes: nothing that imports or calls (c, i, R, b, o, ...).
        let opcodes = Set(written.filter { [0x63, 0x69, 0x52, 0x62, 0x6F, 0x93].contains($0) })
        #expect(opcodes.isEmpty)
    }

    @Test func phpSerializedStringsAreReplacedWithLengthsRecomputed() {
        let replaced = PHPSerialized.replacingStrings(in: #"a:1:{s:5:"theme";s:4:"dark";}"#, with: "sntabc")
        #expect(replaced == #"a:1:{s:6:"sntabc";s:6:"sntabc";}"#)
        #expect(PHPSerialized.replacingStrings(in: "hello", with: "x") == nil)
        #expect(PHPSerialized.replacingStrings(in: #"s:99:"short";"#, with: "x") == nil)
    }

    @Test func theXXEDocumentDeclaresTheEntityWhereTheTextWas() throws {
        let original = #"<?xml version="1.0"?><note><to>Alice</to></note>"#
        let (root, _) = try #require(XXECheck.rootAndText(original))
        #expect(root == "note")
        let injected = XXECheck.inject(entity: "file:///etc/passwd", into: original, root: root)
        #expect(
            injected
                == #"<?xml version="1.0"?><!DOCTYPE note [<!ENTITY sentinel SYSTEM "file:///etc/passwd">]><note><to>&sentinel;</to></note>"#
        )
    }

    @Test(arguments: [
        ("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1", true),
        ("<p>root:x:0:0:root:/root:/bin/bash</p>", true),
        ("the root: user 0:0", false),
        ("[fonts]\n[extensions]\n", true),
    ])
    func systemFileSignatures(text: String, reads: Bool) {
        #expect(PathTraversalCheck.readsFile(text) == reads)
    }

    @Test func similarityIgnoresTheEchoedPayload() {
        let a = WebResponse(status: 200, body: Array("<p>No results for <b>x' AND '1'='1</b></p>\n<ul></ul>".utf8))
        let b = WebResponse(status: 200, body: Array("<p>No results for <b>x' AND '1'='2</b></p>\n<ul></ul>".utf8))
        #expect(ResponseSimilarity.ratio(a, b, removing: ["x' AND '1'='1", "x' AND '1'='2"]) == 1)
        #expect(ResponseSimilarity.ratio(a, b) < 1)
        #expect(ResponseSimilarity.ratio(a, WebResponse(status: 500, body: a.body)) == 0)
    }

    @Test func markersAreRepeatableForASeedAndDistinct() {
        let first = Markers(seed: 7)
        let second = Markers(seed: 7)
        let markers = (0..<100).map { _ in first.marker() }
        #expect(markers == (0..<100).map { _ in second.marker() })
        #expect(Set(markers).count == 100)
        #expect(markers.allSatisfy { $0.hasPrefix("snt") && $0.count == 11 })
        let (a, b, product) = first.product()
        #expect(a * b == product && (10_000..<100_000).contains(a))
    }

    @Test func aJSONLeafIsReplacedAndTheRestKept() throws {
        let node = try JSON.parse(Array(#"{"user":{"name":"a","tags":["x",1]},"n":2}"#.utf8), file: "t")
        let leaves = JSONPath.leaves(of: node).map(\.description)
        #expect(leaves == ["user.name", "user.tags[0]", "user.tags[1]", "n"])
        let path = JSONPath.leaves(of: node)[1]
        let replaced = path.replacing(in: node, with: "<x>")
        #expect(JSONWriter.string(replaced, sortKeys: false) == #"{"user":{"name":"a","tags":["<x>",1]},"n":2}"#)
    }

    @Test func insertionPointsBuildTheRequestWithThePayloadInPlace() throws {
        let url = try #require(WebURL("http://127.0.0.1:8080/search?q=hi&page=2"))
        let endpoint = Endpoint(method: "GET", url: url, discovery: .link)
        let points = InsertionPoint.all(of: endpoint, cookies: [NameValue("session", "abc")])
        #expect(points.map(\.name) == ["q", "page", "session"])
        #expect(points[0].request("a b&c").url.string == "http://127.0.0.1:8080/search?q=a%20b%26c&page=2")
        #expect(points[2].request("x").header("Cookie") == "session=x")
        let form = Endpoint(
            method: "POST", url: url.withQuery([]), body: .form([NameValue("comment", "hi")]), discovery: .form)
        let posted = InsertionPoint.all(of: form)[0].request("<b>")
        #expect(String(decoding: posted.body, as: UTF8.self) == "comment=%3Cb%3E")
        #expect(posted.header("Content-Type") == "application/x-www-form-urlencoded")
    }
}
