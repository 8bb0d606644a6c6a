import Findings
import Foundation
import Support
import Testing

@testable import SAST

/// The index is read through `Documents.JSON` rather than `JSONDecoder` (issue 77): the same
/// values on every field, and an index it cannot read in full is not used at all.
@Suite struct RuleIndexDocumentTests {
    static func shippedBytes() throws -> [UInt8] {
        let path = URL(fileURLWithPath: RuleIndexTests.shipped).appendingPathComponent(RuleIndex.fileName).path
        return [UInt8](try BoundedFile.read(path, limit: RuleIndex.maxSize, followLinks: false))
    }

    @Test("the shipped index reads the same as JSONDecoder reads it")
    func shippedIndexReadsAsCodable() throws {
        let bytes = try Self.shippedBytes()
        let codable = try JSONDecoder().decode(RuleIndex.self, from: Data(bytes))
        let read = try #require(RuleIndex.decode(bytes, file: RuleIndex.fileName))
        #expect(read == codable)
        // Each kind of entry is there to compare: sets, headers, text and taint needs.
        #expect(read.files.contains { $0.isSet })
        #expect(read.files.contains { $0.text != nil })
        #expect(read.files.contains { $0.taint != nil && !($0.taint?.sanitizerSets.isEmpty ?? true) })
    }

    /// One entry with every optional field of every type set, written by the encoder the
    /// index is written with.
    static let fullEntry = RuleIndex.Entry(
        path: "python/x.yaml", sha256: String(repeating: "a", count: 64), isSet: false, languages: ["python"],
        identifiers: [["os", "system"], ["subprocess"]],
        text: RuleIndex.TextNeeds(required: [[Array("ab".utf8), [0xFF]]], caseInsensitive: true),
        header: RuleIndex.Header(
            id: "python.x",
            descriptor: {
                var descriptor = RuleDescriptor(
                    id: "python.x", tool: "native", name: "x", shortDescription: "short", fullDescription: "full", help: "help",
                    helpMarkdown: "**help**", helpURI: "https://example.invalid/x", defaultSeverity: .critical, cwe: [78, 88],
                    tags: ["injection"], precision: .high)
                descriptor.securitySeverityScore = 9.8
                return descriptor
            }(), bandit: ["B605"], semgrep: ["python.lang.x"]),
        taint: RuleIndex.TaintNeeds(sinks: [["eval"]], sanitizers: ["int(...)"], sanitizerSets: ["py-casts"]))

    @Test("every field of an entry, optional ones set and absent")
    func everyFieldRoundTrips() throws {
        var bare = Self.fullEntry
        bare.identifiers = nil
        bare.text = nil
        bare.header = nil
        bare.taint = nil
        var whole = Self.fullEntry
        whole.header?.descriptor.securitySeverityScore = 7  // written as an integer
        let index = RuleIndex(format: RuleIndex.currentFormat, files: [Self.fullEntry, bare, whole])
        let bytes = try index.encoded()
        #expect(RuleIndex.decode(bytes, file: "index.json") == index)
        #expect(try JSONDecoder().decode(RuleIndex.self, from: Data(bytes)) == index)
    }

    @Test(
        "an index with a field it cannot read is not used",
        arguments: [
            #"{"files":[{"isSet":false,"languages":["python"],"path":"a.yaml"}],"format":1}"#,  // no sha256
            #"{"files":[{"isSet":"no","languages":["python"],"path":"a.yaml","sha256":"x"}],"format":1}"#,
            #"{"files":[{"identifiers":[[1]],"isSet":false,"languages":[],"path":"a.yaml","sha256":"x"}],"format":1}"#,
            #"{"files":[{"isSet":false,"languages":[],"path":"a.yaml","sha256":"x","text":{"caseInsensitive":false,"required":[[[256]]]}}],"format":1}"#,
            #"{"files":[{"header":{"bandit":[],"descriptor":{"cwe":[],"defaultSeverity":"dire","id":"r","shortDescription":"s","tags":[],"tool":"native"},"id":"r","semgrep":[]},"isSet":false,"languages":[],"path":"a.yaml","sha256":"x"}],"format":1}"#,
            #"{"files":{},"format":1}"#,
            #"{"files":[],"format":"1"}"#,
            #"{"files":[],"format":1"#,
            "",
        ])
    func unreadableIndexIsNotUsed(text: String) {
        #expect(RuleIndex.decode(Array(text.utf8), file: "index.json") == nil)
        #expect((try? JSONDecoder().decode(RuleIndex.self, from: Data(text.utf8))) == nil)
    }

    @Test("null and unknown keys read as JSONDecoder reads them")
    func nullAndUnknownKeys() throws {
        let text =
            #"{"files":[{"header":null,"isSet":true,"languages":["javascript"],"later":{"x":[1]},"path":"s.yaml","sha256":"x","taint":null}],"format":1,"note":"x"}"#
        let read = try #require(RuleIndex.decode(Array(text.utf8), file: "index.json"))
        #expect(read == (try JSONDecoder().decode(RuleIndex.self, from: Data(text.utf8))))
        #expect(read.files.first?.header == nil && read.files.first?.isSet == true)
    }
}
