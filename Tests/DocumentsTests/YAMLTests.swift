import Support
import Testing

@testable import Documents
@testable import DocumentsYAML

/// The YAML reader over Yams' `compose`: positions from marks, the two scalar modes, aliases,
/// errors with lines.
@Suite struct YAMLTests {
    private func parse(_ text: String, scalars: YAML.Scalars = .text) throws -> DocumentNode {
        try YAML.parse(Array(text.utf8), file: "f.yaml", scalars: scalars)
    }

    private func message(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return (error as? SentinelError)?.message ?? "\(error)"
        }
    }

    @Test func linesAndColumnsOfKeysAndValues() throws {
        let root = try parse("name: x\nlist:\n  - a\n  -   b\nmap: {k: v}\n")
        #expect(root.members.map(\.key) == ["name", "list", "map"])
        #expect(root.members.map { [$0.line, $0.column] } == [[1, 1], [2, 1], [5, 1]])
        #expect(root["name"].map { [$0.line, $0.column] } == [1, 7])
        #expect(root["list"]?.elements.map { [$0.line, $0.column] } == [[3, 5], [4, 7]])
        #expect(root["map"]?.member("k").map { [$0.line, $0.column] } == [5, 7])
    }

    /// OSV records rely on this: unquoted timestamps and numbers stay as written.
    @Test func textScalarsStayAsWritten() throws {
        let root = try parse("modified: 2023-11-07T20:24:23Z\nintroduced: 0\nflag: true\nnone: ~\nyes: yes\nq: 'null'\n")
        #expect(root["modified"]?.value == .string("2023-11-07T20:24:23Z"))
        #expect(root["introduced"]?.value == .string("0"))
        #expect(root["flag"]?.value == .bool(true))
        #expect(root["none"]?.value == .null)
        #expect(root["yes"]?.value == .string("yes"))
        #expect(root["q"]?.value == .string("null"))
    }

    @Test func typedScalarsFollowYAML11() throws {
        let root = try parse(
            "a: 12\nb: 1.5\nc: yes\nd: off\ne: null\nf: '12'\ng: 2023-11-07T20:24:23Z\n", scalars: .typed)
        #expect(
            root.members.map(\.value.value) == [
                .integer(12), .double(1.5), .bool(true), .bool(false), .null, .string("12"),
                .string("2023-11-07T20:24:23Z"),
            ])
    }

    @Test func anchorsAndAliasesAreExpanded() throws {
        let root = try parse("base: &b {x: 1}\nuse: *b\n")
        #expect(root["use"]?["x"]?.string == "1")
        #expect(root["use"]?.line == 1)
    }

    @Test func crlfAndBOM() throws {
        let root = try parse("\u{FEFF}a: 1\r\nb:\r\n  c: 2\r\n")
        #expect(root.members.map(\.line) == [1, 2])
        #expect(root["b"]?.member("c")?.line == 3)
    }

    @Test func laterDocumentIsPreferred() throws {
        let text = "env: 1\n---\npackages: {}\n"
        let root = try YAML.parse(Array(text.utf8), file: "f.yaml") { $0["packages"] != nil }
        #expect(root.members.map(\.key) == ["packages"])
        #expect(try YAML.documents(Array(text.utf8), file: "f.yaml").count == 2)
        #expect(try YAML.documents([], file: "f.yaml").isEmpty)
    }

    @Test func errorsNameFileAndLine() {
        #expect(message("") == "f.yaml:1: empty YAML document")
        let unclosed = message("a: 1\nb: [unclosed\n")
        #expect(unclosed?.hasPrefix("f.yaml:3: invalid YAML: ") == true)
        #expect(unclosed?.contains("\n") == false)
        #expect(message("a: *nowhere\n")?.hasPrefix("f.yaml:1: invalid YAML: ") == true)
    }
}
