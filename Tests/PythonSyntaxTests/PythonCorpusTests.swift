import Foundation
import Testing

@testable import PythonSyntax
import TestSupport

/// Real files: Bandit's examples and Semgrep's Python rule tests, read in place.
@Suite("Python corpus")
struct PythonCorpusTests {
    /// Parses every corpus file; returns the failures keyed by path.
    static func parseAll() -> (total: Int, failures: [String: PythonSyntaxError]) {
        var failures: [String: PythonSyntaxError] = [:]
        let files = PyTest.corpusFiles()
        for url in files {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            do {
                _ = try PythonParser.parseModule(bytes: [UInt8](data), fileName: url.path)
            } catch let e as PythonSyntaxError {
                failures[url.path] = e
            } catch {
                failures[url.path] = PythonSyntaxError(
                    .unexpectedToken, file: url.path, line: 0, column: 0, message: "\(error)")
            }
        }
        return (files.count, failures)
    }

    @Test("at least 98% of corpus files parse", .needsCorpus("bandit/examples", "semgrep-rules/python"))
    func parseRate() {
        let (total, failures) = Self.parseAll()
        let rate = Double(total - failures.count) / Double(max(total, 1))
        print("python corpus: \(total - failures.count)/\(total) files parse (\(String(format: "%.2f", rate * 100))%)")
        for (_, e) in failures.sorted(by: { $0.key < $1.key }) { print("  rejected: \(e)") }
        #expect(total > 400)
        #expect(rate >= 0.98)
    }

    @Test(
        "accept/reject agrees with CPython's ast.parse on every corpus file",
        .needsCorpus("bandit/examples", "semgrep-rules/python"), .enabled(if: PyTest.python3 != nil, "needs python3"))
    func agreesWithCPython() throws {
        let files = PyTest.corpusFiles().map(\.path)
        let script = """
            import ast, sys
            for p in sys.argv[1:]:
                try:
                    ast.parse(open(p, 'rb').read())
                except Exception:
                    print(p)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(PyTest.python3))
        process.arguments = ["-c", script] + files
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let cpythonRejects = Set(String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init))
        let ours = Set(Self.parseAll().failures.keys)
        for path in ours.subtracting(cpythonRejects).sorted() { print("  we reject, CPython accepts: \(path)") }
        for path in cpythonRejects.subtracting(ours).sorted() { print("  CPython rejects, we accept: \(path)") }
        #expect(!cpythonRejects.isEmpty)
        #expect(ours == cpythonRejects)
    }
}
