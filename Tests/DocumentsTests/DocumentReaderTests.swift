import Support
import Testing

@testable import Documents
import DocumentsYAML

/// The typed accessor: values in either spelling, and `FILE:LINE: KEY: problem` errors.
@Suite struct DocumentReaderTests {
    private let reader = DocumentReader(source: "c.yaml")

    private func root(_ text: String, scalars: YAML.Scalars = .typed) throws -> DocumentNode {
        try YAML.parse(Array(text.utf8), file: "c.yaml", scalars: scalars)
    }

    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? SentinelError)?.message ?? "\(error)"
        }
    }

    @Test func valuesInEitherSpelling() throws {
        let node = try root("a: 512M\nb: 1024\nc: '30s'\nd: 1.5\ne: '7'\n")
        #expect(try reader.size(#require(node["a"]), key: "a") == 512 << 20)
        #expect(try reader.size(#require(node["b"]), key: "b") == 1024)
        #expect(try reader.duration(#require(node["c"]), key: "c") == 30)
        #expect(try reader.number(#require(node["d"]), key: "d") == 1.5)
        #expect(try reader.positiveInt(#require(node["e"]), key: "e") == 7)
    }

    @Test func errorsNameFileLineAndKey() throws {
        let node = try root("name: x\nlimits:\n  pids: 0\n  list: [a, '']\nbogus: 1\n")
        let limits = try #require(node["limits"])
        #expect(
            message { _ = try reader.positiveInt(#require(limits["pids"]), key: "limits.pids") }
                == "c.yaml:3: limits.pids: must be above 0")
        #expect(
            message { _ = try reader.stringList(#require(limits["list"]), key: "limits.list") }
                == "c.yaml:4: limits.list[1]: must be a non-empty string")
        #expect(
            message { try reader.checkKeys(node, allowed: ["name", "limits"], at: "") }
                == "c.yaml:5: unknown key 'bogus'")
        #expect(message { _ = try reader.mapping(#require(node["name"]), key: "name") } == "c.yaml:1: name: must be a mapping")
    }
}
