import Findings
import Foundation
import PythonSyntax
import SourcePositions
import Testing

@testable import SAST

/// What a fix must do to the file it edits: apply cleanly, leave a file that parses, make its
/// finding go away (and no other finding of the rule appear or vanish), and keep every line outside
/// its regions byte for byte, line breaks included.
enum FixCheck {
    /// Applies `finding`'s fix to `source` and records an issue for each property that fails;
    /// returns the fixed text.
    @discardableResult
    static func verify(
        _ finding: Finding, in source: String, file: String, engine: SASTEngine, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> String {
        let fix = try #require(finding.fix, sourceLocation: sourceLocation)
        let line = finding.location.startLine ?? 0
        let place = "\(file):\(line)"
        let fixed = try fix.apply(to: source)

        // Python's strict parser; JavaScript's and TypeScript's front end as a scan reads the file.
        do {
            if file.hasSuffix(".py") { _ = try PythonParser.parseModule(source: fixed, fileName: file) }
            if let notice = engine.scan(file: file, source: fixed).parseError { throw SentinelTestError(notice) }
        } catch {
            Issue.record("\(place): the fixed file does not parse: \(error)\n\(fixed)", sourceLocation: sourceLocation)
            return fixed
        }

        let lines = LineMap(fix, source: source)
        let before = LineIndex(source)
        let after = LineIndex(fixed)
        for n in 1...before.lineCount where !lines.touched.contains(n) {
            let moved = lines.newLine(n)
            #expect(
                Self.fullLine(n, before) == Self.fullLine(moved, after),
                "\(place): line \(n) (now \(moved)) changed", sourceLocation: sourceLocation)
        }

        let rescan = engine.scan(file: file, source: fixed)
        #expect(rescan.parseError == nil, sourceLocation: sourceLocation)
        let original = engine.scan(file: file, source: source).findings.filter { $0.ruleId == finding.ruleId }
        let others = original.filter { $0.location != finding.location }.compactMap { $0.location.startLine }
            .map { lines.newLine($0) }.sorted()
        let now = rescan.findings.filter { $0.ruleId == finding.ruleId }.compactMap { $0.location.startLine }.sorted()
        #expect(
            now == others, "\(place): after the fix \(finding.ruleId) reports lines \(now), expected \(others)",
            sourceLocation: sourceLocation)
        return fixed
    }

    /// Line `n` with its line break.
    static func fullLine(_ n: Int, _ index: LineIndex) -> ArraySlice<UInt8> {
        guard n >= 1, n <= index.lineCount else { return [] }
        let end = n < index.lineCount ? index.lineStarts[n] : index.bytes.count
        return index.bytes[index.lineStarts[n - 1]..<end]
    }
}

/// Where the lines of a file go when a fix is applied: lines inside a replaced region are
/// touched; the others move by the lines the replacements before them add or remove.
struct LineMap {
    /// Original lines a replacement rewrites.
    var touched: Set<Int> = []
    /// (first original line after the edit, lines added) per replacement.
    private var shifts: [(after: Int, delta: Int)] = []

    init(_ fix: Fix, source: String) {
        for r in fix.replacements where r.file == nil {
            let added = LineIndex(r.text).lineCount - 1
            let wholeLines = r.startLine == r.endLine && r.startColumn == 1 && r.endColumn == 1 && r.text.last?.isNewline == true
            if wholeLines {
                // Lines inserted before line `startLine`, which itself is untouched.
                shifts.append((r.startLine, added))
            } else {
                touched.formUnion(r.startLine...r.endLine)
                shifts.append((r.endLine + 1, added - (r.endLine - r.startLine)))
            }
        }
    }

    /// The line original line `n` is on after the fix.
    func newLine(_ n: Int) -> Int {
        n + shifts.filter { $0.after <= n }.reduce(0) { $0 + $1.delta }
    }
}

/// A fixed file that does not parse, as the scan's notice says.
struct SentinelTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
