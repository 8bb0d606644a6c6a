import Documents
import DocumentsYAML
import Support
import Testing

/// JSON, TOML and YAML readers on mutated documents: a tree or a `SentinelError`, never a trap;
/// every tree read is written back as JSON and read again.
@Suite struct DocumentFuzzTests {
    static let dictionary = [
        "{", "}", "[", "]", "\"", "'", ":", ",", "=", "#", "\n", "  ", "-", "- ", "[[", "]]", "a.b.c", "\"\"\"",
        "'''", "&a", "*a", "!!str", "<<: *a", "---", "...", "|", ">", "? ", "true", "null", "1e999", "-0",
        "\\u0000", "\\ud800", "1979-05-27T07:32:00Z", "inf", "nan", "0x1F", "{a = 1}", "%YAML 1.1", "!<tag>",
    ]

    static func readers(_ bytes: [UInt8]) -> String? {
        let written: (DocumentNode) throws -> Void = { node in
            _ = try JSON.parse(JSONWriter.bytes(node, style: .pretty), file: "written")
        }
        return contractBroken(typed: { $0 is SentinelError }) { try written(JSON.parse(bytes, file: "fuzz")) }
            ?? contractBroken(typed: { $0 is SentinelError }) { try written(TOML.parse(bytes, file: "fuzz")) }
            ?? contractBroken(typed: { $0 is SentinelError }) {
                try YAML.documents(bytes, file: "fuzz", scalars: .typed).forEach(written)
            }
            ?? contractBroken(typed: { $0 is SentinelError }) { try written(YAML.parse(bytes, file: "fuzz")) }
    }

    @Test func mutatedDocuments() {
        let seeds =
            FuzzSeeds.files("SCATests/Fixtures/lockfiles") { $0.hasSuffix(".json") || $0.hasSuffix(".lock") || $0.hasSuffix(".yaml") }
            + [
                Array(#"{"a": [1, 2.5e3, "x\u00e9", {"b": null}], "a": true}"#.utf8),
                Array("[t]\nk = 'v'\na.b = [1, {c = 2}]\n[[arr]]\nd = 1979-05-27\n".utf8),
                Array("a: &x [1, {b: c}]\nd: *x\ne: |\n  text\n---\n- !!int 3\n".utf8),
            ]
        let problems = fuzz(seeds: seeds, dictionary: Self.dictionary, seed: 26, iterations: 600, Self.readers)
        #expect(problems.isEmpty, "\(problems)")
    }
}
