import Foundation

/// What a pytest run printed, read back: per-test outcomes (from the short summary, `-rA`, or
/// `-v` lines), the closing counts, and for each failure its traceback locations, exception type
/// and `E` lines. Works for `--tb=short|long|line|native` and `-q`.
public struct PytestReport: Sendable, Hashable, Codable {
    /// One failing or erroring test as its section and summary line describe it.
    public struct Failure: Sendable, Hashable, Codable {
        /// `tests/test_x.py::test_y` (or the section title when no summary names it).
        public var test: String
        /// The summary's message, or the first `E` line.
        public var message: String
        /// `E` lines of its section (assertion introspection: expected vs actual), capped.
        public var details: [String]
        /// Traceback positions, outermost first.
        public var locations: [Signal.Location]
        /// Exception type when printed (`AssertionError` for a failed assert).
        public var exceptionType: String?
    }

    /// Tests seen passing.
    public var passed: [String] = []
    /// Tests seen failing (`FAILED`).
    public var failed: [String] = []
    /// Tests with errors in setup/teardown or collection (`ERROR`).
    public var errors: [String] = []
    /// The closing line's counts: `passed`, `failed`, `error`, `skipped`, `xfailed`, …
    public var counts: [String: Int] = [:]
    /// Details per failing test, in the order printed.
    public var failures: [Failure] = []

    /// True when the text looked like pytest at all (a closing summary, a section or an outcome line).
    public var recognized: Bool { !counts.isEmpty || !failures.isEmpty || !failed.isEmpty || !passed.isEmpty || !errors.isEmpty }

    /// Failing and erroring tests, without repeats, in order.
    public var failing: [String] {
        var seen = Set<String>()
        return (failed + errors + failures.map(\.test).filter { $0.contains("::") }).filter { seen.insert($0).inserted }
    }

    /// An empty report (another runner's reader fills it in: `TAPReport`).
    public init() {}

    /// Reads pytest's console output.
    public init(output: String) {
        let lines = output.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        var section: Failure?
        var inFailureSections = false
        // Sets and an index beside the ordered lists: every line is read in constant time, so 50,000
        // failures take as long per line as one (searching the lists made the reader quadratic).
        var seen: [String: Set<String>] = ["PASSED": [], "FAILED": [], "ERROR": []]
        var byTitle = FailureIndex()
        func closeSection() {
            if let done = section {
                byTitle.add(done.test, at: failures.count)
                failures.append(done)
            }
            section = nil
        }
        for line in lines {
            if let title = Self.banner(line) {
                let lower = title.lowercased()
                if lower == "failures" || lower == "errors" {
                    inFailureSections = true
                    continue
                }
                if let counts = Self.counts(title) {
                    closeSection()
                    self.counts = counts
                    inFailureSections = false
                    continue
                }
                closeSection()
                inFailureSections = false
                continue
            }
            if let name = Self.sectionTitle(line), inFailureSections {
                closeSection()
                section = Failure(test: name, message: "", details: [], locations: [], exceptionType: nil)
                continue
            }
            if let (outcome, test, message) = Self.outcomeLine(line) {
                closeSection()
                let new = seen[outcome, default: []].insert(test).inserted
                switch outcome {
                case "PASSED": if new { passed.append(test) }
                case "FAILED":
                    if new { failed.append(test) }
                    Self.attach(message: message, to: test, in: &failures, index: &byTitle)
                case "ERROR":
                    if new { errors.append(test) }
                    Self.attach(message: message, to: test, in: &failures, index: &byTitle)
                default: break
                }
                continue
            }
            if let counts = Self.counts(line) {
                closeSection()
                self.counts = counts
                continue
            }
            if section != nil {
                Self.read(line, into: &section!)
            } else if let located = Self.lineModeFailure(line) {
                // --tb=line prints one `path:line: message` per failure outside any section.
                byTitle.add(located.test, at: failures.count)
                failures.append(located)
            }
        }
        closeSection()
        // --tb=line failures are `path:line` entries in the order the summary lists the tests.
        let lineFailures = failures.indices.filter { !failures[$0].test.contains("::") }
        let named = failed + errors
        if !lineFailures.isEmpty, lineFailures.count == named.count {
            for (index, test) in zip(lineFailures, named) { failures[index].test = test }
            failures = Self.merged(failures)
        }
    }

    /// One entry per test: the located one, with the summary's message when it had none.
    private static func merged(_ failures: [Failure]) -> [Failure] {
        var order: [String] = []
        var byTest: [String: Failure] = [:]
        for failure in failures {
            if var known = byTest[failure.test] {
                if known.locations.isEmpty { known.locations = failure.locations }
                if known.exceptionType == nil { known.exceptionType = failure.exceptionType }
                if known.details.isEmpty { known.details = failure.details }
                byTest[failure.test] = known
            } else {
                order.append(failure.test)
                byTest[failure.test] = failure
            }
        }
        return order.compactMap { byTest[$0] }
    }

    /// A summary line names the full test id the section title abbreviates: the first failure
    /// titled with the id, its dotted short form (`Class.test`), or a `::` suffix of it.
    private static func attach(message: String?, to test: String, in failures: inout [Failure], index: inout FailureIndex) {
        let parts = test.components(separatedBy: "::")
        var keys = [test, parts.dropFirst().joined(separator: ".")]
        for start in 1..<max(1, parts.count) { keys.append(parts[start...].joined(separator: "::")) }
        if let found = index.first(of: keys) {
            index.rename(found, from: failures[found].test, to: test)
            failures[found].test = test
            if let message, !message.isEmpty { failures[found].message = message }
        } else if let message {
            index.add(test, at: failures.count)
            failures.append(Failure(test: test, message: message, details: [], locations: [], exceptionType: nil))
        }
    }

    /// Failures by their current title, each title's indices ascending. A failure leaves its
    /// title only as the first of it (`attach` takes the lowest): a head offset, not a search.
    struct FailureIndex {
        private var byTitle: [String: (indices: [Int], head: Int)] = [:]

        mutating func add(_ title: String, at index: Int) { byTitle[title, default: ([], 0)].indices.append(index) }

        /// The lowest index titled with any of `titles`.
        func first(of titles: [String]) -> Int? {
            titles.compactMap { title in byTitle[title].flatMap { $0.head < $0.indices.count ? $0.indices[$0.head] : nil } }.min()
        }

        /// Moves `index`, the first of `old`, to `new`.
        mutating func rename(_ index: Int, from old: String, to new: String) {
            guard old != new else { return }
            if let entry = byTitle[old], entry.head < entry.indices.count, entry.indices[entry.head] == index {
                byTitle[old]?.head += 1
            }
            var entry = byTitle[new, default: ([], 0)]
            let position = entry.indices[entry.head...].firstIndex { $0 > index } ?? entry.indices.count
            entry.indices.insert(index, at: position)
            byTitle[new] = entry
        }
    }

    private static func read(_ line: String, into failure: inout Failure) {
        if line.hasPrefix("E ") || line == "E" {
            let text = line.dropFirst(1).trimmingCharacters(in: .whitespaces)
            if failure.details.count < 20 { failure.details.append(text) }
            if failure.message.isEmpty { failure.message = text }
            if failure.exceptionType == nil {
                if text.hasPrefix("assert ") || text.hasPrefix("AssertionError") {
                    failure.exceptionType = "AssertionError"
                } else if let (type, _) = PythonTraceback.exceptionLine(text), type.first?.isUppercase == true {
                    failure.exceptionType = type
                }
            }
            return
        }
        if let frame = PythonTraceback.frame(line.trimmingCharacters(in: .whitespaces)) {
            // --tb=native prints pytest's own frames too: only the project's are locations.
            if !isLibrary(frame.file) {
                failure.locations.append(Signal.Location(file: frame.file, line: frame.line, function: frame.function))
            }
            return
        }
        if let first = line.first, !first.isWhitespace, failure.exceptionType == nil,
            let (type, message) = PythonTraceback.exceptionLine(line), type.first?.isUppercase == true,
            type.hasSuffix("Error") || type.hasSuffix("Exception") || !message.isEmpty
        {
            failure.exceptionType = type
            if failure.message.isEmpty { failure.message = line }
            return
        }
        guard let (file, number, rest) = pathLine(line) else { return }
        var function: String?
        if rest.hasPrefix("in ") {
            function = String(rest.dropFirst(3))
        } else if !rest.isEmpty, let (type, _) = PythonTraceback.exceptionLine(rest), type.first?.isUppercase == true {
            failure.exceptionType = type
        }
        failure.locations.append(Signal.Location(file: file, line: number, function: function))
    }

    private static func lineModeFailure(_ line: String) -> Failure? {
        guard let (file, number, rest) = pathLine(line), !rest.isEmpty, !rest.hasPrefix("in ") else { return nil }
        var type: String?
        if rest.hasPrefix("assert ") {
            type = "AssertionError"
        } else if let (name, _) = PythonTraceback.exceptionLine(rest), name.first?.isUppercase == true {
            type = name
        }
        return Failure(
            test: "\(file):\(number)", message: rest, details: [rest],
            locations: [Signal.Location(file: file, line: number)], exceptionType: type)
    }

    /// Interpreter and installed-package files, not the project's.
    static func isLibrary(_ file: String) -> Bool {
        file.contains("/site-packages/") || file.contains("/dist-packages/") || file.hasPrefix("/usr/lib/python")
            || file.hasPrefix("<")
    }

    /// `path.py:12: rest` (rest may be empty).
    static func pathLine(_ line: String) -> (String, Int, String)? {
        guard let range = line.range(of: ".py:") else { return nil }
        let file = String(line[..<range.lowerBound]) + ".py"
        guard !file.contains(" "), !file.isEmpty else { return nil }
        let after = line[range.upperBound...]
        let digits = after.prefix { $0.isNumber }
        guard let number = Int(digits) else { return nil }
        var rest = after.dropFirst(digits.count)
        guard rest.first == ":" || rest.isEmpty else { return nil }
        rest = rest.dropFirst()
        return (file, number, rest.trimmingCharacters(in: .whitespaces))
    }

    /// `===== title =====` → title.
    static func banner(_ line: String) -> String? {
        guard line.hasPrefix("==="), line.hasSuffix("===") else { return nil }
        return line.trimmingCharacters(in: CharacterSet(charactersIn: "= "))
    }

    /// `____ test_name ____` → test_name.
    static func sectionTitle(_ line: String) -> String? {
        guard line.hasPrefix("___"), line.hasSuffix("___") else { return nil }
        let title = line.trimmingCharacters(in: CharacterSet(charactersIn: "_ "))
        guard !title.isEmpty else { return nil }
        if title.hasPrefix("ERROR at ") || title.hasPrefix("ERROR collecting ") {
            return String(title.split(separator: " ").last ?? Substring(title))
        }
        return title
    }

    /// `FAILED id - message`, `PASSED id`, `ERROR id`, or `-v`'s `id FAILED  [ 50%]`.
    static func outcomeLine(_ line: String) -> (String, String, String?)? {
        for outcome in ["FAILED", "PASSED", "ERROR"] {
            if line.hasPrefix(outcome + " ") {
                let rest = line.dropFirst(outcome.count + 1)
                if let dash = rest.range(of: " - ") {
                    let test = String(rest[..<dash.lowerBound])
                    guard isTestId(test) else { return nil }
                    return (outcome, test, String(rest[dash.upperBound...]))
                }
                let test = String(rest.split(separator: " ").first ?? "")
                guard isTestId(test) else { return nil }
                return (outcome, test, nil)
            }
        }
        let words = line.split(separator: " ")
        if words.count >= 2, isTestId(String(words[0])), ["PASSED", "FAILED", "ERROR"].contains(String(words[1])) {
            return (String(words[1]), String(words[0]), nil)
        }
        return nil
    }

    private static func isTestId(_ text: String) -> Bool {
        text.contains("::") && !text.contains("/..") && !text.hasPrefix("-")
    }

    /// `1 failed, 3 passed, 1 warning in 0.02s` → counts (nil when the line is not one).
    static func counts(_ line: String) -> [String: Int]? {
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: "= "))
        guard let inRange = trimmed.range(of: " in ", options: .backwards),
            trimmed[inRange.upperBound...].hasSuffix("s") || trimmed[inRange.upperBound...].contains("s (")
        else {
            if trimmed == "no tests ran" { return [:] }
            return nil
        }
        var counts: [String: Int] = [:]
        for part in trimmed[..<inRange.lowerBound].split(separator: ",") {
            let words = part.split(separator: " ")
            guard words.count == 2, let number = Int(words[0]) else { return nil }
            var key = String(words[1])
            if key == "errors" { key = "error" }
            if key == "warnings" { key = "warning" }
            counts[key] = number
        }
        return counts.isEmpty ? nil : counts
    }
}
