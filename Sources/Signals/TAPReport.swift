import Foundation

/// A TAP stream (Test Anything Protocol, versions 13 and 14) as Node's test runner
/// (`--test-reporter=tap`), mocha (`--reporter tap`) and vitest (`--reporter=tap`) print it,
/// read into the shape the verifier reads pytest's in: per-test outcomes, closing counts and
/// each failure's message. Subtests are indented four spaces a level, a test's id is its
/// ancestors' names and its own joined by ` > `, and a test with subtests (a suite) is not a
/// test of its own. Everything else in the output (what the tests print) is left alone.
///
/// The stream is the test run's, so hostile: read in one pass, linear in its size; at most
/// ``maximumTests`` outcomes and ``maximumDepth`` levels, and a stream past either is a
/// ``Reading/problem``, never a partial report taken for a whole one.
public enum TAPReport {
    /// The most test points read.
    public static let maximumTests = 100_000
    /// The deepest subtest nesting read.
    public static let maximumDepth = 64

    /// What a stream said, or why it cannot be trusted as a report.
    public struct Reading: Sendable, Hashable {
        /// The outcomes, when the stream held a TAP report.
        public var report: PytestReport?
        /// Why the report does not show a complete run (no plan, fewer results than planned, a
        /// bail out, a bound hit); nil when it does.
        public var problem: String?
    }

    /// Reads `output`; `report` is nil when no TAP test point or plan is in it.
    public static func read(_ output: String) -> Reading {
        var state = State()
        for raw in output.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if state.problem != nil { break }
            state.read(Substring(raw))
        }
        return state.finish()
    }

    /// The reader's state across lines.
    private struct State {
        var report = PytestReport()
        var problem: String?
        /// The open `# Subtest:` name at each level.
        var names: [String] = []
        /// Whether a test point was read at each level since the last one a level up, and
        /// whether one of them failed.
        var childSeen: [Bool] = []
        var childFailed: [Bool] = []
        var sawTAP = false
        var topLevelPoints = 0
        var plan: Int?
        var summary: [String: Int] = [:]
        var points = 0
        /// The failure whose YAML block is being read, and the block's indentation.
        var open: (index: Int, indent: Int)?

        mutating func read(_ line: Substring) {
            let indent = line.prefix { $0 == " " }.count
            let text = line.dropFirst(indent)
            if let block = open {
                // A blank line belongs to the block (YAML's block scalars keep them).
                if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return }
                if indent >= block.indent, text == "..." {
                    open = nil
                    return
                }
                if indent >= block.indent {
                    readDiagnostic(text, into: block.index)
                    return
                }
                open = nil
            }
            guard indent % 4 == 0 || text.hasPrefix("---") else { return }
            let level = indent / 4
            if text.hasPrefix("# Subtest: ") {
                guard level < TAPReport.maximumDepth else {
                    problem = "nests subtests deeper than \(TAPReport.maximumDepth) levels"
                    return
                }
                setName(String(text.dropFirst("# Subtest: ".count)), at: level)
                return
            }
            if text.hasPrefix("---"), let last = report.failures.indices.last, lastPointIndent == indent - 2 {
                if lastPointFailed { open = (last, indent) }
                return
            }
            if let (ok, name, directive) = Self.testPoint(text) {
                readPoint(ok: ok, name: name, directive: directive, level: level, indent: indent)
                return
            }
            if level == 0, let count = Self.plan(text) {
                sawTAP = true
                plan = count
                return
            }
            if level == 0, text.hasPrefix("Bail out!") {
                sawTAP = true
                problem = "bailed out (\(text.prefix(200)))"
                return
            }
            if level == 0, text.hasPrefix("# "), let (key, value) = Self.summaryLine(text) {
                summary[key] = value
            }
        }

        var lastPointIndent = -1
        var lastPointFailed = false

        mutating func setName(_ name: String, at level: Int) {
            if names.count > level { names.removeLast(names.count - level) }
            while names.count < level { names.append("") }
            names.append(name)
        }

        mutating func readPoint(ok: Bool, name: String, directive: String?, level: Int, indent: Int) {
            guard level < TAPReport.maximumDepth else {
                problem = "nests subtests deeper than \(TAPReport.maximumDepth) levels"
                return
            }
            points += 1
            guard points <= TAPReport.maximumTests else {
                problem = "holds more than \(TAPReport.maximumTests) results"
                return
            }
            sawTAP = true
            if level == 0 { topLevelPoints += 1 }
            while childSeen.count <= level + 1 {
                childSeen.append(false)
                childFailed.append(false)
            }
            let isSuite = childSeen[level + 1]
            let aChildFailed = childFailed[level + 1]
            childSeen[level + 1] = false
            childFailed[level + 1] = false
            childSeen[level] = true
            lastPointIndent = indent
            lastPointFailed = false
            // A suite's own line repeats its subtests' verdict; its name leaves the path.
            let path = names.prefix(level) + [name]
            if names.count > level { names.removeLast(names.count - level) }
            guard !isSuite else {
                if aChildFailed {
                    childFailed[level] = true
                } else if !ok, directive == nil {
                    // A suite that failed with no failing test of its own (a hook threw).
                    recordFailure(path.joined(separator: " > "), level: level)
                }
                return
            }
            let id = path.joined(separator: " > ")
            if let directive {
                report.counts[directive == "todo" ? "todo" : "skipped", default: 0] += 1
                return
            }
            if ok {
                report.passed.append(id)
            } else {
                recordFailure(id, level: level)
            }
        }

        mutating func recordFailure(_ id: String, level: Int) {
            childFailed[level] = true
            report.failed.append(id)
            report.failures.append(
                PytestReport.Failure(test: id, message: "", details: [], locations: [], exceptionType: nil))
            lastPointFailed = true
        }

        /// `error: 'text'`, `name: 'AssertionError'` and the first line of a `|-` block.
        mutating func readDiagnostic(_ text: Substring, into index: Int) {
            var failure = report.failures[index]
            defer { report.failures[index] = failure }
            if text.hasPrefix("name: "), failure.exceptionType == nil {
                failure.exceptionType = Self.unquoted(text.dropFirst(6))
            } else if text.hasPrefix("error: "), failure.message.isEmpty {
                let value = Self.unquoted(text.dropFirst(7))
                if value != "|-" && value != "|" && value != ">-" { failure.message = String(value.prefix(500)) }
            } else if failure.message.isEmpty, !text.contains(": "), !text.isEmpty, failure.details.isEmpty {
                // The first line of the `error: |-` block.
                failure.message = String(text.prefix(500))
            }
            if failure.details.count < 20, !text.isEmpty, text.contains("!==") || text.contains("Expected") {
                failure.details.append(String(text.prefix(500)))
            }
        }

        func finish() -> Reading {
            guard sawTAP else { return Reading(report: nil, problem: problem ?? "was not printed") }
            var report = report
            let failed = report.failed.count
            report.counts["passed"] = report.passed.count
            report.counts["failed"] = failed
            if let problem { return Reading(report: report, problem: problem) }
            guard let plan else { return Reading(report: report, problem: "has no plan line (`1..N`): the run ended early") }
            if topLevelPoints < plan {
                return Reading(report: report, problem: "reports \(topLevelPoints) of the \(plan) results it planned")
            }
            if report.passed.isEmpty, failed == 0 { return Reading(report: report, problem: "reports no test that ran") }
            // The runner's own closing counts (Node, mocha) name failures the test points must show.
            let counted = (summary["fail"] ?? 0) + (summary["cancelled"] ?? 0)
            if counted > 0, failed == 0 {
                return Reading(report: report, problem: "counts \(counted) failed or cancelled without naming them")
            }
            return Reading(report: report, problem: nil)
        }

        /// `ok 1 - name`, `not ok 2 name # SKIP why` → (ok, name, directive: `skip`/`todo`).
        static func testPoint(_ text: Substring) -> (Bool, String, String?)? {
            var rest: Substring
            let ok: Bool
            if text.hasPrefix("ok") {
                ok = true
                rest = text.dropFirst(2)
            } else if text.hasPrefix("not ok") {
                ok = false
                rest = text.dropFirst(6)
            } else {
                return nil
            }
            guard rest.isEmpty || rest.first == " " else { return nil }
            rest = rest.drop { $0 == " " }
            rest = rest.drop { $0.isASCII && $0.isNumber }.drop { $0 == " " }
            if rest.hasPrefix("- ") { rest = rest.dropFirst(2) }
            var directive: String?
            if let hash = rest.range(of: " # ", options: .backwards) {
                let word = rest[hash.upperBound...].prefix { $0.isLetter }.lowercased()
                if word == "skip" || word == "todo" {
                    directive = word
                    rest = rest[..<hash.lowerBound]
                }
            }
            return (ok, String(rest.prefix(1000)), directive)
        }

        /// `1..N` → N.
        static func plan(_ text: Substring) -> Int? {
            guard text.hasPrefix("1..") else { return nil }
            let digits = text.dropFirst(3).prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count < 10 else { return nil }
            return Int(digits)
        }

        /// `# pass 3` → ("pass", 3).
        static func summaryLine(_ text: Substring) -> (String, Int)? {
            let words = text.dropFirst(2).split(separator: " ")
            guard words.count == 2, ["tests", "pass", "fail", "cancelled", "skipped", "todo"].contains(String(words[0])),
                words[1].count < 10, let value = Int(words[1])
            else { return nil }
            return (String(words[0]), value)
        }

        static func unquoted(_ text: Substring) -> String {
            var value = text.trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("'") && value.hasSuffix("'") || value.hasPrefix("\"") && value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
    }
}
