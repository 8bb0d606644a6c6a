import Foundation
import Support
import TemplateSyntax

/// Runs a template rule test file: `{# ruleid: ID #}` alone on a line means the next line that
/// is not blank must have a finding of ID; trailing a line, that line. `{# ok: ID #}` means it
/// must not (`rules/README.md`).
enum TemplateRuleTests {
    static func check(file: String, engine: TemplateEngine) -> RuleTestResult {
        // An operator-named rule directory's fixture, like the rule files themselves.
        guard let data = try? BoundedFile.read(file, limit: RuleSet.maxRuleFileSize, followLinks: false) else {
            return RuleTestResult(file: file, ruleIds: [], expectations: 0, failures: ["\(file): cannot read"])
        }
        let bytes = [UInt8](data)
        let document = TemplateDocument(bytes: bytes)
        let result = engine.scan(file: file, bytes: bytes, project: nil)
        return RuleTests.compare(
            file: file, annotations: annotations(document), findings: result.findings,
            known: Set(engine.rules.map(\.id)), problems: result.bounds)
    }

    static func annotations(_ document: TemplateDocument) -> [Annotation] {
        marked(["ruleid:", "ok:"], document)
    }

    /// `{# nofix: ID (why) #}` comments, placed as `ruleid`: cases whose finding the rule's
    /// `fix-regex` deliberately leaves alone (`expectsFinding` true).
    static func noFixes(_ document: TemplateDocument) -> [Annotation] {
        marked(["nofix:"], document)
    }

    private static func marked(_ markers: [String], _ document: TemplateDocument) -> [Annotation] {
        var out: [Annotation] = []
        for token in document.tokens where token.kind == .comment {
            let body = document.text(token.inner)
            let marker = markers.first { body.hasPrefix($0) }
            guard let marker else { continue }
            let (line, column) = document.position(of: token.range.lowerBound)
            let before = document.line(line).prefix(column - 1)
            let target = before.allSatisfy(\.isWhitespace) ? nextLine(after: line, document) : line
            // A note in brackets after the ids says why (`nofix: ID (why)`).
            let ids = body.dropFirst(marker.count).prefix { $0 != "(" }
            for id in ids.split(separator: ",") {
                let trimmed = id.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { out.append(Annotation(ruleId: trimmed, expectsFinding: marker != "ok:", line: target)) }
            }
        }
        return out
    }

    /// The next line after `line` that is neither blank nor only a template comment.
    private static func nextLine(after line: Int, _ document: TemplateDocument) -> Int {
        var current = line + 1
        while current <= document.lineCount {
            let text = document.line(current).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty && !(text.hasPrefix("{#") && text.hasSuffix("#}")) { return current }
            current += 1
        }
        return current
    }
}
