import Findings
import SourcePositions
import Languages
import Testing

@testable import SAST

/// Shapes a pull request controls cost work linear in their size (issue 76 H13/H14, issue 77):
/// the counts of work done are asserted, never the time taken, and the findings still come.
@Suite struct LinearGrowthTests {
    /// The lowered tree of a JavaScript file, indexed.
    static func javaScriptIndex(_ source: String) throws -> FileIndex {
        let parsed = try SourceFrontEnd.parse(bytes: Array(source.utf8), file: "app.js", language: .javascript)
        return FileIndex(root: parsed.root, source: SourceText(source), language: .javascript)
    }

    /// A forwarding chain `function g_i(x) { return g_{i+1}(x); }` of `count` functions.
    static func chain(_ count: Int) -> String {
        (0..<count).map { "function g\($0)(x) { return g\($0 + 1)(x); }\n" }.joined()
    }

    /// The statement patterns of a `pattern-inside` like web-request.yaml's Socket.IO handler
    /// (`function $F(...) {...}` then `...` then `socket.on("...", $F)`), searched in a file of N
    /// functions: the statements tried grow with N, not N² (each definition used to scan every
    /// statement after it), and the one handler registered is still found.
    @Test func aSequencePatternTriesEachStatementAFewTimes() throws {
        let pattern = try PatternSyntax(name: SourceLanguage.javascript.patternSyntax).lower(
            "function $F(...) {\n  ...\n}\n...\nsocket.on(\"...\", $F)\n")
        var work: [Int] = []
        for count in [500, 2000] {
            let source = Self.chain(count) + "socket.on('chat', g7);\nsocket.on('join', h);\n"
            let search = PatternSearch(index: try Self.javaScriptIndex(source))
            let found = search.sequenceMatchesCountingWork(pattern.children)
            // Only g7's definition is registered.
            #expect(found.matches.count == 1)
            #expect(found.matches.first?.range.start.line == 8)
            work.append(found.attempts)
            #expect(found.attempts <= 4 * (count + 2))
        }
        // Four times the statements, about four times the work.
        #expect(work[1] <= 5 * work[0])
    }

    /// Every definition registered by its own `socket.on` (N handlers, N registrations): each
    /// definition tries the one registration naming it, not all of them.
    @Test func registrationsAreTriedByTheNameTheyBind() throws {
        let pattern = try PatternSyntax(name: SourceLanguage.javascript.patternSyntax).lower(
            "function $F(...) {\n  ...\n}\n...\nsocket.on(\"...\", $F)\n")
        let count = 1000
        let source = Self.chain(count) + (0..<count).map { "socket.on('m\($0)', g\($0));\n" }.joined()
        let found = PatternSearch(index: try Self.javaScriptIndex(source)).sequenceMatchesCountingWork(pattern.children)
        #expect(found.matches.count == count)
        #expect(found.attempts <= 6 * 2 * count)
    }

    /// The chain between an Express route and `exec` is still a finding, at any length.
    @Test func aLongForwardingChainStillReachesItsSink() throws {
        let rules = JavaScriptEngineTests.taint
        let source =
            "const express = require('express');\nconst child_process = require('child_process');\nconst app = express();\n"
            + Self.chain(300) + "function g300(x) { return child_process.exec(x); }\n"
            + "app.get('/run', (req, res) => { g0(req.query.cmd); res.send('ok'); });\n"
        let engine = try JavaScriptEngineTests.engine([("javascript.exec", "[javascript]", rules)])
        let result = engine.scan(file: "app.js", source: source)
        #expect(result.findings.map(\.ruleId) == ["javascript.exec"])
    }

    /// A range from byte offset `start` to `end` (lines and columns do not matter here).
    static func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(
            start: SourceLocation(line: 1, column: start + 1, offset: start), end: SourceLocation(line: 1, column: end + 1, offset: end))
    }

    /// The matches of a sink's `pattern-inside` around a sink, and the functions around a
    /// `return`, are a chain of parents: each question compares a few ranges, not all N of them
    /// (every sink of a file of N functions read all N matches and all N functions: N²).
    @Test func rangesAroundASinkAreFoundWithoutReadingTheOthers() {
        let count = 2000
        // A module holding N functions, each holding one statement; the last one nests a lambda.
        var ranges = [Self.range(0, 10 * count)]
        ranges += (0..<count).map { Self.range(10 * $0 + 1, 10 * $0 + 9) }
        ranges.append(Self.range(10 * (count - 1) + 2, 10 * (count - 1) + 8))
        let nesting = NestedRanges(ranges)
        let last = 10 * (count - 1)
        let questions: [(SourceRange, [Int])] = [
            (Self.range(73, 75), [8, 0]), (Self.range(last + 3, last + 4), [count + 1, count, 0]), (Self.range(79, 81), [0]),
            (Self.range(0, 10 * count), [0]),
        ]
        for (query, expected) in questions {
            let found = nesting.enclosingCountingWork(query)
            #expect(found.positions == expected)
            #expect(found.positions.sorted() == ranges.indices.filter { PatternSearch.contains(ranges[$0], query) })
            #expect(found.compared <= 4)
        }
    }

    /// Ranges that overlap without nesting (a statement sequence's matches may), or an empty
    /// range asked about, are answered by reading them all: the same answer as before.
    @Test func overlappingRangesAreStillAnsweredExactly() {
        let ranges = [Self.range(0, 10), Self.range(5, 15), Self.range(12, 20)]
        let nesting = NestedRanges(ranges)
        #expect(nesting.enclosing(Self.range(6, 9)).sorted() == [0, 1])
        #expect(nesting.enclosing(Self.range(12, 14)).sorted() == [1, 2])
        #expect(nesting.enclosing(Self.range(10, 10)).sorted() == [0, 1])
    }

    /// `metavariable-value` asked at each of N statements follows a name to its assignment: the
    /// module is read once for all of them (it was walked again for each: N calls `f(a, b)`
    /// beside an Express route cost N²), and each answer is the one a walk gives.
    @Test func aScopeIsReadOnceForEveryNameAskedInIt() throws {
        let count = 1000
        let source = "import os\nmode = os.environ.get('M')\n" + String(repeating: "f(mode)\n", count: count) + "(mode := 'x')\n"
        let parsed = try SourceFrontEnd.parse(bytes: Array(source.utf8), file: "app.py", language: .python)
        let index = FileIndex(root: parsed.root, source: SourceText(source))
        let origins = ValueOrigins(root: index.root, assignments: index.scopeAssignments)
        let plain = ValueOrigins(root: index.root)
        let arguments = index.nodes(of: .call).filter { $0.children.first?.text == "f" }.compactMap { $0.children.dropFirst().first }
        #expect(arguments.count == count)
        for argument in arguments {
            let values = origins.values(of: argument)
            // The name, its assignment and the walrus's value, as the walk finds them.
            #expect(values.count == 3)
            #expect(values.map(\.range) == plain.values(of: argument).map(\.range))
        }
        #expect(index.scopeAssignments.scopesRead == 1)
    }
}
