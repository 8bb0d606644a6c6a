import Languages
import Findings
import Foundation
import PythonSyntax
import Support

/// The outcome of one rule test file (`rules/<lang>/<name>.py`).
public struct RuleTestResult: Sendable, Hashable {
    /// The test file.
    public var file: String
    /// Rule ids the file's annotations name.
    public var ruleIds: [String]
    /// Number of `ruleid` and `ok` annotations checked.
    public var expectations: Int
    /// One line per mismatch: `file:line: missing finding of ID` / `unexpected finding of ID`.
    public var failures: [String]

    /// Whether every expectation held.
    public var passed: Bool { failures.isEmpty }
}

/// Runs rule test files: `# ruleid: ID` above (or beside) a line means that line must have a
/// finding of ID starting on it; `# ok: ID` means it must not. Any other finding of a rule the
/// file tests is unexpected too, so a test file documents everything its rules report in it.
public enum RuleTests {
    /// Loads the rules under `directory` and checks every test file in a registered language there, and every
    /// `*.html` test file against the template rules. `setsFrom`: directories whose source and
    /// sanitizer sets the rules may include (the shipped ones, for a project's rule directory).
    /// - Throws: `SentinelError` when the rules do not load.
    public static func run(directory: String, setsFrom: [String] = []) throws -> [RuleTestResult] {
        let rules = try RuleSet.load(directories: [directory], setsFrom: setsFrom)
        let engine = SASTEngine(rules: rules)
        let root = URL(fileURLWithPath: directory)
        var files: [String] = []
        var templates: [String] = []
        if let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator {
                // A test file is code in a registered language (`.py`, `.js`, `.ts`...).
                if Languages.fileExtensions.contains(url.pathExtension.lowercased()) {
                    files.append(url.path)
                }
                if url.pathExtension == "html" { templates.append(url.path) }
            }
        }
        var results = files.sorted().map { check(file: $0, engine: engine) }
        let templateEngine = TemplateEngine(rules: rules.templateRules)
        results += templates.sorted().map { TemplateRuleTests.check(file: $0, engine: templateEngine) }
        // A rule without any test is a failure of its own.
        let tested = Set(results.flatMap(\.ruleIds))
        let all =
            rules.rules.map { ($0.id, $0.file) } + rules.templateRules.map { ($0.id, $0.file) }
            + rules.routeRules.map { ($0.id, $0.file) }
        for (id, file) in all where !tested.contains(id) {
            results.append(
                RuleTestResult(
                    file: file, ruleIds: [id], expectations: 0, failures: ["\(file): rule \(id) has no test annotations"]))
        }
        return results
    }

    /// Checks one test file against `engine`.
    public static func check(file: String, engine: SASTEngine) -> RuleTestResult {
        guard let data = FileManager.default.contents(atPath: file) else {
            return RuleTestResult(file: file, ruleIds: [], expectations: 0, failures: ["\(file): cannot read"])
        }
        let source = String(decoding: data, as: UTF8.self)
        let annotations: [Annotation]
        if SourceLanguage(fileName: file) ?? .python == .python {
            let module: PythonModule
            do {
                module = try PythonParser.parseModule(source: source, fileName: file)
            } catch {
                return RuleTestResult(file: file, ruleIds: [], expectations: 0, failures: ["\(error)"])
            }
            annotations = Annotation.parse(module: module, source: SourceText(source))
        } else {
            annotations = Annotation.parse(slashComments: SourceText(source))
        }
        let result = engine.scan(file: file, source: source)
        // A route rule's test file is a project of one file.
        let routeFindings = RouteEngine(rules: engine.rules.routeRules).findings(handlers: result.routes)
        let known = Set(engine.rules.rules.map(\.id) + engine.rules.routeRules.map(\.id))
        return compare(
            file: file, annotations: annotations, findings: result.findings + routeFindings, known: known,
            problems: result.parseError.map { [$0] } ?? [])
    }

    /// Checks `findings` against `annotations`: each `ruleid` line has a finding of its rule, no
    /// `ok` line has one, and no other line has a finding of a rule the file annotates.
    static func compare(
        file: String, annotations: [Annotation], findings: [Finding], known: Set<String>, problems: [String]
    ) -> RuleTestResult {
        let ids = Set(annotations.map(\.ruleId))
        var failures: [String] = problems
        for id in ids.sorted() where !known.contains(id) { failures.append("\(file): annotation names unknown rule \(id)") }
        var found: [String: Set<Int>] = [:]
        for finding in findings where ids.contains(finding.ruleId) {
            found[finding.ruleId, default: []].insert(finding.location.startLine ?? 0)
        }
        var expected: [String: Set<Int>] = [:]
        for a in annotations {
            let lines = found[a.ruleId] ?? []
            if a.expectsFinding {
                expected[a.ruleId, default: []].insert(a.line)
                if !lines.contains(a.line) { failures.append("\(file):\(a.line): missing finding of \(a.ruleId)") }
            } else if lines.contains(a.line) {
                failures.append("\(file):\(a.line): unexpected finding of \(a.ruleId) (marked ok)")
            }
        }
        let okLines = Set(annotations.filter { !$0.expectsFinding }.map { "\($0.ruleId)#\($0.line)" })
        for (id, lines) in found {
            for line in lines.sorted() where !(expected[id]?.contains(line) ?? false) && !okLines.contains("\(id)#\(line)") {
                failures.append("\(file):\(line): unexpected finding of \(id) (no annotation)")
            }
        }
        return RuleTestResult(
            file: file, ruleIds: ids.sorted(), expectations: annotations.count, failures: failures.sorted(by: Self.byLine))
    }

    private static func byLine(_ a: String, _ b: String) -> Bool {
        func key(_ s: String) -> (String, Int) {
            let parts = s.split(separator: ":")
            return (parts.first.map(String.init) ?? s, parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
        }
        return key(a) < key(b)
    }
}

/// One `# ruleid:` / `# ok:` comment and the line it applies to.
struct Annotation: Sendable, Hashable {
    var ruleId: String
    var expectsFinding: Bool
    var line: Int

    /// Reads annotations from the parser's comments; a comment on its own line applies to the next
    /// line that is neither blank nor a comment, a trailing comment to its own line.
    static func parse(module: PythonModule, source: SourceText) -> [Annotation] {
        marked(["ruleid:", "ok:"], module: module, source: source).map {
            Annotation(ruleId: $0.ruleId, expectsFinding: $0.marker == "ruleid:", line: $0.line)
        }
    }

    /// Reads `// ruleid: ID` and `// ok: ID` annotations of a JavaScript or TypeScript test file,
    /// placed as in Python: on a line of their own they apply to the next code line.
    static func parse(slashComments source: SourceText) -> [Annotation] {
        slashMarked(["ruleid:", "ok:"], source: source).map {
            Annotation(ruleId: $0.ruleId, expectsFinding: $0.marker == "ruleid:", line: $0.line)
        }
    }

    /// `# nofix: ID (why)` comments: `ruleid` cases whose finding the rule's `fix:` deliberately
    /// leaves without a fix (placed like other annotations; the note in parentheses is optional).
    /// Only fix tests read them.
    static func noFix(module: PythonModule, source: SourceText) -> [Annotation] {
        marked(["nofix:"], notes: true, module: module, source: source).map {
            Annotation(ruleId: $0.ruleId, expectsFinding: true, line: $0.line)
        }
    }

    /// `// nofix: ID (why)` comments of a JavaScript or TypeScript test file, placed as `// ruleid:`.
    static func noFix(slashComments source: SourceText) -> [Annotation] {
        slashMarked(["nofix:"], notes: true, source: source).map { Annotation(ruleId: $0.ruleId, expectsFinding: true, line: $0.line) }
    }

    /// The rule ids of `// MARKER` comments (`//MARKER` too) of a JavaScript or TypeScript test
    /// file, with the marker and the line each applies to: its own line after code, else the next
    /// code line. With `notes`, the ids end at a `(` that starts a note.
    private static func slashMarked(
        _ markers: [String], notes: Bool = false, source: SourceText
    ) -> [(marker: String, ruleId: String, line: Int)] {
        var out: [(marker: String, ruleId: String, line: Int)] = []
        guard source.lineCount > 0 else { return out }
        for line in 1...source.lineCount {
            let text = String(decoding: source.lineBytes(line), as: UTF8.self)
            for marker in markers {
                guard let comment = text.range(of: "// \(marker)") ?? text.range(of: "//\(marker)") else { continue }
                let before = text[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
                let target = before.isEmpty ? nextCodeLine(after: line, source, comment: "//") : line
                let ids = notes ? text[comment.upperBound...].prefix { $0 != "(" } : text[comment.upperBound...]
                for id in ids.split(separator: ",") {
                    let trimmed = id.trimmingCharacters(in: .whitespaces)
                    if !trimmed.isEmpty { out.append((marker, trimmed, target)) }
                }
            }
        }
        return out
    }

    /// The rule ids of comments starting with one of `markers`, with the marker and the line each
    /// applies to. With `notes`, the ids end at a `(` that starts a note.
    private static func marked(
        _ markers: [String], notes: Bool = false, module: PythonModule, source: SourceText
    ) -> [(marker: String, ruleId: String, line: Int)] {
        var out: [(String, String, Int)] = []
        for comment in module.comments {
            let body = comment.text.drop { $0 == "#" || $0 == " " }
            guard let marker = markers.first(where: { body.hasPrefix($0) }) else { continue }
            let rest = body.dropFirst(marker.count).prefix { !notes || $0 != "(" }
            let line = comment.isTrailing ? comment.range.start.line : nextCodeLine(after: comment.range.start.line, source)
            for id in rest.split(separator: ",") {
                let trimmed = id.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { out.append((marker, trimmed, line)) }
            }
        }
        return out
    }

    private static func nextCodeLine(after line: Int, _ source: SourceText, comment: String = "#") -> Int {
        var current = line + 1
        while current <= source.lineCount {
            let text = source.lineBytes(current).drop { $0 == 32 || $0 == 9 }
            if !text.isEmpty && !text.starts(with: comment.utf8) { return current }
            current += 1
        }
        return current
    }
}
