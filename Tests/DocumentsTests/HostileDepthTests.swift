import Foundation
import Support
import Testing

@testable import Documents
@testable import DocumentsYAML

/// Issue 26: nesting depth is attacker-controlled, so every reader bounds it and a bound that is
/// hit is a one-line error naming the file and line, never a stack overflow.
@Suite struct HostileDepthTests {
    /// The error message `parse` throws, or a note that it did not throw.
    private func message(_ parse: () throws -> DocumentNode) -> String {
        do {
            _ = try parse()
            return "accepted"
        } catch let error as SentinelError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    private func toml(_ text: String) -> String {
        message { try TOML.parse(Array(text.utf8), file: "Cargo.lock") }
    }

    static let deepKey = Array(repeating: "a", count: 10_000).joined(separator: ".")

    @Test func aTenThousandSegmentDottedKeyIsAnErrorOnItsLine() {
        #expect(toml("x = 1\n\(Self.deepKey) = 1\n") == "Cargo.lock:2: TOML key nested too deeply")
    }

    @Test func aTenThousandSegmentHeaderIsAnErrorOnItsLine() {
        #expect(toml("\n[\(Self.deepKey)]\n") == "Cargo.lock:2: TOML key nested too deeply")
        #expect(toml("[[\(Self.deepKey)]]\n") == "Cargo.lock:1: TOML key nested too deeply")
    }

    @Test func dottedKeysInsideNestedInlineTablesCountTowardsOneBound() {
        // 40 levels of inline tables (within the value bound), each holding a 100-segment key:
        // 4,000 tables deep.
        let segment = Array(repeating: "k", count: 100).joined(separator: ".")
        let text = "v = " + String(repeating: "{\(segment) = ", count: 40) + "1" + String(repeating: "}", count: 40)
        #expect(toml(text).hasPrefix("Cargo.lock:1: TOML "), "\(toml(text).prefix(80))")
        #expect(toml(text).hasSuffix("nested too deeply"))
    }

    @Test(arguments: ["[", "{a = ", "[{a = "])
    func deepArraysAndInlineTablesAreErrors(opening: String) {
        let result = toml("v = " + String(repeating: opening, count: 100_000))
        #expect(result.hasPrefix("Cargo.lock:1: TOML ") && result.hasSuffix("nested too deeply"), "\(result.prefix(80))")
    }

    @Test func aHundredSegmentKeyStillParses() throws {
        let key = Array(repeating: "a", count: 100).joined(separator: ".")
        let root = try TOML.parse(Array("[\(key)]\nb = 1\n".utf8), file: "t.toml")
        var node: DocumentNode? = root
        for _ in 0..<100 { node = node?["a"] }
        #expect(node?["b"]?.value == .integer(1))
    }

    @Test(arguments: ["[", "{\"a\": ", "[{\"a\": "])
    func deepJSONIsAnError(opening: String) {
        let text = "\n" + String(repeating: opening, count: 100_000)
        #expect(message { try JSON.parse(Array(text.utf8), file: "package-lock.json") } == "package-lock.json:2: JSON nested too deeply")
    }

    @Test(arguments: ["[", "{a: ", "- ", "a:\n", "? "])
    func deepYAMLIsAnErrorNamingFileAndLine(opening: String) {
        var text = ""
        if opening.hasSuffix("\n") {
            // Block mappings nest by indentation: one more space per level, past libyaml's 1,000.
            for level in 0..<2_000 { text += String(repeating: " ", count: level) + opening }
        } else {
            text = String(repeating: opening, count: 100_000) + "x\n"
        }
        let result = message { try YAML.parse(Array(text.utf8), file: "pnpm-lock.yaml") }
        #expect(result.range(of: #"^pnpm-lock\.yaml:\d+: invalid YAML: "#, options: .regularExpression) != nil, "\(result.prefix(200))")
    }
}
