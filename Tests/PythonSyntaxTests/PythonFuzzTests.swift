import Foundation
import TestSupport
import Testing

@testable import PythonSyntax

/// Hostile input: random bytes, token soup and truncated or mutated real files never crash; each
/// parse returns or throws ``PythonSyntaxError``. How long the pathological inputs take is measured
/// by `bench/speed-bounds.sh` (`SENTINEL_BENCH=1` prints `BENCH` lines), never asserted here.
@Suite("Python parser fuzz")
struct PythonFuzzTests {

    /// Parses and checks the outcome; returns whether it parsed.
    @discardableResult
    static func check(_ bytes: [UInt8], _ label: String) -> Bool {
        do {
            _ = try PythonParser.parseModule(bytes: bytes, fileName: "fuzz.py")
            return true
        } catch let e as PythonSyntaxError {
            #expect(!e.description.contains("\n"), "\(label): multi-line error")
            #expect(e.line >= 1 && e.column >= 1, "\(label): \(e)")
        } catch {
            Issue.record("\(label): non-syntax error \(error)")
        }
        return false
    }

    static let benchmarking = ProcessInfo.processInfo.environment["SENTINEL_BENCH"] == "1"

    /// ``check(_:_:)``, timed for the bench script when `SENTINEL_BENCH=1`.
    static func timedCheck(_ bytes: [UInt8], _ name: String, _ label: String) -> Bool {
        var parsed = false
        let elapsed = ContinuousClock().measure { parsed = check(bytes, label) }
        if benchmarking {
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            print("BENCH python-pathological \(name) bytes=\(bytes.count) wall_ms=\(String(format: "%.1f", ms))")
        }
        return parsed
    }

    static let fragments: [String] = [
        "def", "class", "if", "elif", "else", ":", "(", ")", "[", "]", "{", "}", ",", "\n", "    ", "\t",
        "lambda", "x", "y", "=", "==", ":=", "**", "*", "->", "@", "yield", "await", "async", "for", "in",
        "not", "is", "match", "case", "_", "'s'", "f'{x}'", "f'{", "'''", "\"", "1", "0x", "1e5", "j",
        "...", ".", "\\", "\\\n", "#c", "return", "try", "except", "finally", "with", "as", "import", "from",
        "global", "del", "pass", "type", "|", "&", "~", "-", "+", ";", "\r\n", "rb'", "!r", "}}", "{{",
    ]

    @Test("random bytes")
    func randomBytes() {
        var rng = SeededRandom(state: 42)
        var alphabet = Array("abcdefxyz_019 \t\n()[]{}:;,.=+-*/%@&|^~<>!'\"#\\$`fr".utf8)
        alphabet += [0, 0x80, 0xC3, 0xA9, 0xFF, 0x0C, 0x0D]
        for i in 0..<3000 {
            let count = Int.random(in: 0..<120, using: &rng)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng)
                    ? alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] : UInt8.random(in: 0...255, using: &rng)
            }
            Self.check(bytes, "random #\(i)")
        }
    }

    @Test("token soup")
    func tokenSoup() {
        var rng = SeededRandom(state: 7)
        var parsedSome = 0
        for i in 0..<3000 {
            let count = Int.random(in: 1..<40, using: &rng)
            let text = (0..<count).map { _ in Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &rng)] }
                .joined(separator: Bool.random(using: &rng) ? " " : "")
            if Self.check(Array(text.utf8), "soup #\(i): \(text.debugDescription)") { parsedSome += 1 }
        }
        // The soup must exercise both outcomes, or the test is not testing the parser.
        #expect(parsedSome > 0)
    }

    @Test("large literals parse (their time: bench/speed-bounds.sh)")
    func largeLiterals() {
        let adjacent = "x = f'{a}' " + String(repeating: "'abc' ", count: 50_000) + "\n"
        #expect(Self.timedCheck(Array(adjacent.utf8), "adjacent-literals", "50k adjacent literals"))
        let fields = "x = f'''" + String(repeating: "{a}\n", count: 20_000) + "'''\n"
        #expect(Self.timedCheck(Array(fields.utf8), "fstring-fields", "20k fields over 20k lines"))
        let long = "x = '" + String(repeating: "\\x41", count: 200_000) + "'\n"
        #expect(Self.timedCheck(Array(long.utf8), "escaped-string", "long escaped string"))
    }

    @Test("truncated and mutated corpus files", .needsCorpus("bandit/examples", "semgrep-rules/python"))
    func truncations() throws {
        var rng = SeededRandom(state: 2024)
        let files = PyTest.corpusFiles()
        var checked = 0
        for url in files.shuffled(using: &rng).prefix(120) {
            let data = try [UInt8](Data(contentsOf: url))
            guard !data.isEmpty else { continue }
            for _ in 0..<4 {
                let cut = Int.random(in: 0...data.count, using: &rng)
                Self.check(Array(data[..<cut]), "\(url.lastPathComponent) cut at \(cut)")
                var mutated = data
                for _ in 0..<3 {
                    let at = Int.random(in: 0..<mutated.count, using: &rng)
                    mutated[at] = Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &rng)].utf8.first ?? 0
                }
                Self.check(mutated, "\(url.lastPathComponent) mutated")
                checked += 2
            }
        }
        #expect(checked > 500)
    }
}
