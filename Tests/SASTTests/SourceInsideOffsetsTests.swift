import Foundation
import Testing

@testable import SAST

/// A taint source with `pattern-inside` occurs only within a match of it (issue 77): a bare `$X`
/// source inside a handler's parameters used to put every expression of every file among the
/// file's source offsets, so every file looked as if it held a source and every node was a
/// candidate. The flow inside the handler is still found.
@Suite struct SourceInsideOffsetsTests {
    static let rule = """
        id: python.handler-param-to-shell
        mode: taint
        message: m
        severity: high
        cwe: [78]
        sources:
          - pattern: $X
            pattern-inside: |
              def handler($X):
                  ...
        sinks:
          - pattern: os.system($C)
            focus: $C

        """

    static func patterns() throws -> TaintPatterns {
        guard case .taint(let spec) = try loadedRule().mode else { throw CancellationError() }
        return TaintPatterns(spec)
    }

    static func index(_ source: String) throws -> FileIndex {
        let parsed = try SourceFrontEnd.parse(bytes: Array(source.utf8), file: "app.py", language: .python)
        return FileIndex(root: parsed.root, source: SourceText(source))
    }

    @Test("a file without the inside pattern has no source offset; one with it has them only inside")
    func offsetsOnlyInside() throws {
        let patterns = try Self.patterns()
        let elsewhere = "import os\n\ndef other(a):\n    b = a + 1\n    os.system(b)\n"
        #expect(SourceMatchCache().offsets(of: patterns, in: try Self.index(elsewhere)).isEmpty)
        let both = "import os\n\ndef other(a):\n    os.system(a)\n\ndef handler(cmd):\n    os.system(cmd)\n"
        let offsets = try SourceMatchCache().offsets(of: patterns, in: Self.index(both))
        let handler = try #require(both.range(of: "def handler")).lowerBound.utf16Offset(in: both)
        #expect(!offsets.isEmpty)
        #expect(offsets.allSatisfy { $0 >= handler })
    }

    @Test("the flow from the handler's parameter is found, the other function's is not")
    func flowStillFound() throws {
        let engine = SASTEngine(rules: try RuleSet(rules: [Self.loadedRule()]))
        let source = "import os\n\ndef other(a):\n    os.system(a)\n\ndef handler(cmd):\n    os.system(cmd)\n"
        let findings = engine.scan(file: "app.py", source: source).findings
        #expect(findings.map(\.location.startLine) == [7])
    }

    /// A library's exported function's parameter (library-input.yaml's shape): a statement run
    /// ending in `module.exports = $F`.
    static let exportedRule = """
        id: javascript.exported-param-to-exec
        mode: taint
        languages: [javascript]
        message: m
        severity: high
        cwe: [78]
        sources:
          - pattern: $X
            pattern-inside: |
              function $F($X) {
                ...
              }
              ...
              module.exports = $F
        sinks:
          - pattern: exec($C)
            focus: $C

        """

    @Test("a statement-run pattern-inside whose identifiers the file lacks is not tried at all")
    func anInsideTheFileCannotHoldCostsNoWork() throws {
        let rule = try Self.loadedRule(Self.exportedRule)
        guard case .taint(let spec) = rule.mode else { throw CancellationError() }
        let patterns = TaintPatterns(spec)
        let functions = (0..<300).map { "function f\($0)(x) { return exec(x); }\n" }.joined()
        func spent(_ source: String) throws -> (offsets: [Int], units: Int) {
            let parsed = try SourceFrontEnd.parse(bytes: Array(source.utf8), file: "lib.js", language: .javascript)
            let meter = WorkMeter()
            let index = FileIndex(root: parsed.root, source: SourceText(source), language: .javascript, meter: meter)
            let before = meter.units
            return (SourceMatchCache().offsets(of: patterns, in: index), meter.units - before)
        }
        // No `module.exports` anywhere: no statement of the 300 functions is compared.
        let unexported = try spent(functions)
        #expect(unexported.offsets.isEmpty)
        #expect(unexported.units == 0)
        // Exported: the run is searched, and the exported function's parameter is a source.
        let exported = try spent(functions + "module.exports = f7;\n")
        #expect(!exported.offsets.isEmpty)
        #expect(exported.units > 0)
    }

    static func loadedRule(_ text: String = rule) throws -> Rule {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("source-inside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try text.write(to: directory.appendingPathComponent("r.yaml"), atomically: true, encoding: .utf8)
        return try #require(try RuleSet.load(directories: [directory.path]).rules.first)
    }

    @Test("regions merge and answer by binary search, ends included")
    func regions() {
        let regions = OffsetRegions([(10, 20), (15, 30), (40, 50), (0, 2)])
        #expect(!regions.isEmpty)
        #expect([0, 2, 10, 25, 30, 40, 50].allSatisfy(regions.holds))
        #expect(![3, 9, 31, 39, 51, -1].contains(where: regions.holds))
        #expect(OffsetRegions([]).isEmpty)
        #expect(!OffsetRegions([]).holds(0))
    }
}
