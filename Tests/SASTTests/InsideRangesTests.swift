import Findings
import Languages
import SourcePositions
import Testing

@testable import SAST

/// A file's taint rules share the matches of their sinks' `pattern-inside` patterns (issue 77):
/// the memo must answer as a fresh search would, whatever was asked before (texts equal only
/// canonically are kept apart: Swift's `==` on strings takes a Kelvin sign for a `K`), and search
/// nothing where the file lacks what every match needs.
@Suite struct InsideRangesTests {
    static let javaScript = PatternSyntax(name: "javascript")

    static func pattern(_ text: String) throws -> CompiledPattern {
        CompiledPattern(source: text, tree: try javaScript.lower(text))
    }

    @Test("the shared memo answers as a fresh search, apart for canonically equal texts, and skips files lacking a pattern's names")
    func sharedAnswersAsFresh() throws {
        let source = "function K(a) {\n  run(a);\n}\nfunction other(b) {\n  run(b);\n}\n"
        let index = try LinearGrowthTests.javaScriptIndex(source)
        let sinks = PatternSearch(index: index).matches(try Self.pattern("run($X)")).map(\.range)
        #expect(sinks.count == 2)
        let plain = try Self.pattern("function K(...) {\n  ...\n}\n")
        let kelvin = try Self.pattern("function \u{212A}(...) {\n  ...\n}\n")
        #expect(plain.source == kelvin.source && !plain.source.utf8.elementsEqual(kelvin.source.utf8))
        let shared = InsideRanges()
        // Asked in both orders, on one memo: each text gets its own answer.
        for (first, second) in [(plain, kelvin), (kelvin, plain)] {
            let memo = InsideRanges()
            for pattern in [first, second, first] {
                for sink in sinks {
                    let fresh = InsideRanges().contains(sink, [:], inside: pattern, index: index)
                    #expect(memo.contains(sink, [:], inside: pattern, index: index) == fresh)
                    #expect(shared.contains(sink, [:], inside: pattern, index: index) == fresh)
                }
            }
        }
        #expect(shared.contains(sinks[0], [:], inside: plain, index: index))
        #expect(!shared.contains(sinks[1], [:], inside: plain, index: index))
        // A pattern naming what the file lacks is not searched: no work is metered for it.
        let absent = try Self.pattern("$RES.set(\"Content-Type\", \"text/plain\");\n...\n")
        let before = index.meter.units
        #expect(!shared.contains(sinks[0], [:], inside: absent, index: index))
        #expect(index.meter.units == before)
        // The same search through the tree alone does work: the test would see one that is not skipped.
        _ = PatternSearch(index: index).matches(absent.tree)
        #expect(index.meter.units > before)
    }
}
