import Git
import PythonSyntax
import Support

/// Turns suspicious lines into repair candidates: runs every template on every line, applies the
/// edits, drops what does not parse or changes nothing, removes duplicates (same resulting text,
/// the best-scored kept) and orders the rest by score, then size, then description.
///
/// A candidate's score is the line's suspiciousness times the template's prior, times
/// ``rankDecay`` for each step down the template's own ranking of its changes at that line
/// (``RepairEdit/rank``): of two equally suspicious lines, the likeliest variable replacement of
/// each is tried before the second likeliest of either.
public struct RepairGenerator: Sendable {
    /// The templates tried, in order.
    public var templates: [any RepairTemplate]
    /// The templates aimed by the output the failing tests compared (run only when there is a
    /// difference to aim at).
    public var guided: [any GuidedRepairTemplate]

    /// What each step down a template's own ranking multiplies a candidate's score by.
    public static let rankDecay = 0.95

    /// The factor a change of `rank` in its template's ranking puts on its score: ``rankDecay``
    /// to the power `rank`.
    public static func rankWeight(_ rank: Int) -> Double {
        (0..<max(0, rank)).reduce(1.0) { weight, _ in weight * rankDecay }
    }

    /// A generator trying `templates`, and `guided` where the output differs.
    public init(
        templates: [any RepairTemplate] = RepairTemplates.standard,
        guided: [any GuidedRepairTemplate] = RepairTemplates.guided
    ) {
        self.templates = templates
        self.guided = guided
    }

    /// Candidates for one file: `suspicious` lines whose `file` is `path` are tried, each scored by
    /// its own suspiciousness. At most `limit` are returned. Throws `SentinelError(.invalidInput)`
    /// when `source` itself does not parse.
    public func candidates(path: String, source: String, suspicious: [SuspiciousLine], limit: Int = 200) throws
        -> [RepairCandidate]
    {
        let lines = suspicious.filter { $0.file == path }
        let templates = self.templates
        // The parser recurses with nesting: it runs on a thread with a large stack, once for all.
        let all = try LargeStack.run {
            try Self.generate(templates: templates, file: RepairFile(path: path, source: source), lines: lines)
        }
        return Self.finish(all, limit: limit)
    }

    /// Candidates for the `top` most suspicious lines across files (`sources`: path → text, as
    /// read from the workspace), and, when `difference` has something to aim at, the guided
    /// templates' candidates on every line of those files in `suspicious` (each line a failing
    /// test ran). Files that are missing from `sources` or do not parse are left out.
    public func candidates(
        sources: [String: String], suspicious: [SuspiciousLine], top: Int = 20, limit: Int = 200,
        difference: OutputDifference = OutputDifference([])
    ) throws -> [RepairCandidate] {
        let chosen = Array(suspicious.prefix(top))
        let templates = self.templates
        let guided = difference.isEmpty ? [] : self.guided
        // Guided changes are scored against the most suspicious line: the output aims them.
        let best = suspicious.first?.score ?? 0
        let all = try LargeStack.run {
            var out: [RepairCandidate] = []
            for path in Set(chosen.map(\.file)).sorted() {
                guard let source = sources[path], let file = try? RepairFile(path: path, source: source) else { continue }
                out += Self.generate(templates: templates, file: file, lines: chosen.filter { $0.file == path })
                let ran = Set(suspicious.filter { $0.file == path }.map(\.line))
                var parsed: [String: Bool] = [:]
                for template in guided {
                    out += Self.candidates(
                        template.candidates(in: file, difference: difference, lines: ran), in: file, template: template.name,
                        score: best * template.prior, parsed: &parsed)
                }
            }
            return out
        }
        return Self.finish(all, limit: limit)
    }

    /// Every parsing candidate of every template at every line, unsorted, duplicates kept.
    static func generate(templates: [any RepairTemplate], file: RepairFile, lines: [SuspiciousLine]) -> [RepairCandidate] {
        var out: [RepairCandidate] = []
        var parsed: [String: Bool] = [:]
        for suspicious in lines where suspicious.line >= 1 && suspicious.line <= file.lineStarts.count {
            for template in templates {
                out += candidates(
                    template.candidates(in: file, line: suspicious.line), in: file, template: template.name,
                    score: suspicious.score * template.prior, parsed: &parsed)
            }
        }
        return out
    }

    /// `edits` applied to `file`, those that change nothing or do not parse left out, each scored
    /// `score` lowered by its rank. `parsed` remembers which texts parse (templates often agree).
    static func candidates(
        _ edits: [RepairEdit], in file: RepairFile, template: String, score: Double, parsed: inout [String: Bool]
    ) -> [RepairCandidate] {
        edits.compactMap { edit in
            guard let after = apply(edit.edits, to: file), after != file.source else { return nil }
            if parsed[after] == nil { parsed[after] = parses(after, path: file.path) }
            guard parsed[after] == true else { return nil }
            return RepairCandidate(
                change: FileChange(path: file.path, before: file.source, after: after), template: template,
                line: edit.line, description: edit.description, score: score * rankWeight(edit.rank), rank: edit.rank,
                size: size(of: edit.edits, in: file))
        }
    }

    /// Whether `text` is valid Python (called on the large-stack thread).
    static func parses(_ text: String, path: String) -> Bool {
        (try? PythonParser.parseOnCurrentThread(bytes: Array(text.utf8), fileName: path, pattern: false)) != nil
    }

    /// The file with `edits` applied; nil when they overlap or fall outside it.
    static func apply(_ edits: [SourceEdit], to file: RepairFile) -> String? {
        let sorted = edits.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var position = 0
        for edit in sorted {
            guard edit.start >= position, edit.end >= edit.start, edit.end <= file.bytes.count else { return nil }
            position = edit.end
        }
        return file.applying(sorted, within: 0, file.bytes.count)
    }

    /// Characters changed: per edit, what remains of the old and new text once their common
    /// prefix and suffix are set aside, the larger of the two (`<` → `<=` is 1).
    static func size(of edits: [SourceEdit], in file: RepairFile) -> Int {
        edits.reduce(0) { total, edit in
            let old = Array(file.text(edit.start, edit.end))
            let new = Array(edit.replacement)
            var prefix = 0
            while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
                suffix += 1
            }
            return total + max(old.count - prefix - suffix, new.count - prefix - suffix)
        }
    }

    /// Sorted (score desc, size asc, description, path), duplicates of a resulting file dropped
    /// after the first, at most `limit`.
    static func finish(_ candidates: [RepairCandidate], limit: Int) -> [RepairCandidate] {
        let sorted = candidates.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.size != b.size { return a.size < b.size }
            if a.description != b.description { return a.description < b.description }
            if a.change.path != b.change.path { return a.change.path < b.change.path }
            return a.template < b.template
        }
        var seen = Set<FileChange>()
        var out: [RepairCandidate] = []
        for candidate in sorted where out.count < limit {
            if seen.insert(FileChange(path: candidate.change.path, before: nil, after: candidate.change.after)).inserted {
                out.append(candidate)
            }
        }
        return out
    }
}
