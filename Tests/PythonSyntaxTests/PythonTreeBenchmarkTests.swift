import Foundation
import Testing

@testable import PythonSyntax

/// Parses a large tree named by `SENTINEL_PY_TREE` (e.g. Django's sources): throughput and agreement
/// with CPython. Off unless the variable is set, since it takes a while; `bench/parse-throughput.sh`
/// sets it.
@Suite("Python tree benchmark")
struct PythonTreeBenchmarkTests {
    static let tree = ProcessInfo.processInfo.environment["SENTINEL_PY_TREE"]

    static func files(under root: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [String] = []
        for case let rel as String in e where rel.hasSuffix(".py") { out.append(root + "/" + rel) }
        return out.sorted()
    }

    @Test(
        "throughput and CPython agreement on $SENTINEL_PY_TREE",
        .enabled(if: tree != nil, "set SENTINEL_PY_TREE to a directory of Python sources"))
    func throughput() throws {
        let root = try #require(Self.tree)
        let paths = Self.files(under: root)
        let sources = paths.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        var lines = 0
        var bytes = 0
        for s in sources {
            bytes += s.count
            for c in s where c == 10 { lines += 1 }
        }
        var rejected: [String: String] = [:]
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for (path, source) in zip(paths, sources) {
                do {
                    _ = try PythonParser.parseModule(bytes: source, fileName: path)
                } catch {
                    rejected[path] = "\(error)"
                }
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "parsed \(paths.count) files, \(lines) lines, \(bytes) bytes in \(String(format: "%.3f", seconds)) s: \(Int(Double(lines) / seconds)) lines/s; rejected \(rejected.count)"
        )
        for (_, message) in rejected.sorted(by: { $0.key < $1.key }) { print("  rejected: \(message)") }
        #expect(!paths.isEmpty)

        if ProcessInfo.processInfo.environment["SENTINEL_PY_ROUNDTRIP"] != nil {
            // Rendering then reparsing must give the same tree: fingerprints rely on it.
            var mismatches = 0
            for (path, source) in zip(paths, sources) where rejected[path] == nil {
                guard let m = try? PythonParser.parseModule(bytes: source, fileName: path) else { continue }
                let text = m.root.normalizedSource
                let again = try? PythonParser.parseModule(source: text, fileName: path)
                if again?.root.sexpr != m.root.sexpr {
                    mismatches += 1
                    guard mismatches <= 20 else { continue }
                    // Name the first statement that does not survive, to make the report actionable.
                    for statement in m.root.children {
                        let rendered = statement.normalizedSource
                        let back = try? PythonParser.parseModule(source: rendered, fileName: path)
                        if back?.root.children.first?.sexpr != statement.sexpr || back?.root.children.count != 1 {
                            print(
                                "  round-trip mismatch: \(path):\(statement.range.start.line): \(rendered.prefix(300).debugDescription)"
                            )
                            break
                        }
                    }
                }
            }
            #expect(mismatches == 0)
        }

        guard let python = PyTest.python3, ProcessInfo.processInfo.environment["SENTINEL_PY_AGREE"] != nil else {
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "-c",
            "import ast,sys\nfor p in sys.stdin.read().split('\\n'):\n  try: ast.parse(open(p,'rb').read())\n  except Exception: print(p)",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(paths.joined(separator: "\n").utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let theirs = Set(String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init))
        let ours = Set(rejected.keys)
        for p in ours.subtracting(theirs).sorted() { print("  we reject, CPython accepts: \(rejected[p] ?? p)") }
        for p in theirs.subtracting(ours).sorted() { print("  CPython rejects, we accept: \(p)") }
        #expect(ours == theirs)
    }
}
