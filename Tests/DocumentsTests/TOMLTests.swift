import Support
import Testing

@testable import Documents

/// The TOML reader: positions of keys and headers, typed scalars, errors with lines.
@Suite struct TOMLTests {
    private func parse(_ text: String) throws -> DocumentNode {
        try TOML.parse(Array(text.utf8), file: "t.toml")
    }

    @Test func positionsOfKeysAndHeaders() throws {
        let root = try parse("a = 1\n  b = 'x'\n\n[[package]]\nname = \"p\"\n\n[[package]]\nname = \"q\"\n")
        #expect(root.members.map { [$0.line, $0.column] } == [[1, 1], [2, 3], [4, 1]])
        #expect(root["package"]?.elements.map(\.line) == [4, 7])
        #expect(root["package"]?.elements.map { $0.member("name")?.line } == [5, 8])
    }

    /// A requirement in a multi-line array is reported at its own line (issue 75).
    @Test func arrayElementsKeepTheirOwnPositions() throws {
        let root = try parse("deps = [\n  \"a\",\n  \"b\", { c = 1 },\n  [\"d\"],\n]\nflat = [1, 2]\n")
        #expect(root["deps"]?.line == 1)
        #expect(root["deps"]?.elements.map { [$0.line, $0.column] } == [[2, 3], [3, 3], [3, 8], [4, 3]])
        #expect(root["deps"]?.elements[3].elements.map { [$0.line, $0.column] } == [[4, 4]])
        #expect(root["flat"]?.elements.map { [$0.line, $0.column] } == [[6, 9], [6, 12]])
    }

    @Test func scalarsAreTyped() throws {
        let root = try parse(
            "i = 1_000\nh = 0xff\nf = 1.5e3\nb = true\nd = 1979-05-27\nt = 07:32:00\ns = \"1\"\n")
        #expect(
            root.members.map(\.value.value) == [
                .integer(1000), .integer(255), .double(1500), .bool(true), .string("1979-05-27"),
                .string("07:32:00"), .string("1"),
            ])
    }

    @Test func errorsNameFileAndLine() {
        do {
            _ = try parse("a = 1\nb = \n")
            Issue.record("accepted")
        } catch let error as SentinelError {
            #expect(error.message.hasPrefix("t.toml:2: "))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
