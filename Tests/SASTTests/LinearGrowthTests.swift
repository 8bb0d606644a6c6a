import Findings
import Testing

@testable import SAST

/// Shapes a pull request controls cost work linear in their size (issue 76 H13/H14, issue 77):
/// the counts of work done are asserted, never the time taken, and the findings still come.
@Suite struct LinearGrowthTests {
    /// The lowered tree of a JavaScript file, indexed.
    static func javaScriptIndex(_ source: String) throws -> FileIndex {
        let parsed = try SourceFrontEnd.parse(bytes: Array(source.utf8), file: "app.js", language: .javascript)
        return FileIndex(root: parsed.root, source: SourceText(source), javaScript: true)
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
        let pattern = try PatternParsing.javaScript("function $F(...) {\n  ...\n}\n...\nsocket.on(\"...\", $F)\n")
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
        let pattern = try PatternParsing.javaScript("function $F(...) {\n  ...\n}\n...\nsocket.on(\"...\", $F)\n")
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
}
