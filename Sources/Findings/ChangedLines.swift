/// The lines changed since a revision, read from `git diff --unified=0 REV` output, so that
/// `scan --since REV` reports only findings on new or edited lines.
public struct ChangedLines: Sendable, Hashable {
    /// Added or modified line numbers (new side) per file, relative to the repository root.
    public var lines: [String: Set<Int>]

    /// Makes a set of changed lines from line numbers per file; empty by default.
    public init(lines: [String: Set<Int>] = [:]) {
        self.lines = lines
    }

    /// Parses a unified diff. Deleted files contribute nothing; a hunk `+c,0` (pure deletion)
    /// adds no lines but still marks the file as touched.
    public init(unifiedDiff text: String) {
        var lines: [String: Set<Int>] = [:]
        var current: String? = nil
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if raw.hasPrefix("+++ ") {
                let target = ChangedLines.unquote(raw.dropFirst(4).trimmingTrailingTab())
                if target == "/dev/null" {
                    current = nil
                } else {
                    current = target.hasPrefix("b/") ? String(target.dropFirst(2)) : target
                    if let current, lines[current] == nil { lines[current] = [] }
                }
            } else if raw.hasPrefix("@@ "), let file = current, let (start, count) = ChangedLines.newRange(raw) {
                if count > 0 { lines[file, default: []].formUnion(start..<(start + count)) }
            }
        }
        self.lines = lines
    }

    /// Whether a finding falls on a changed line. Findings without a line (a lockfile as a whole)
    /// count when their file was touched; web findings always count (no diff applies to them).
    public func contains(_ finding: Finding) -> Bool {
        guard let file = finding.location.file else { return true }
        guard let changed = lines[file] else { return false }
        guard let range = finding.location.lineRange else { return true }
        return range.contains { changed.contains($0) }
    }

    /// The findings on changed lines.
    public func filter(_ findings: [Finding]) -> [Finding] {
        findings.filter(contains)
    }

    /// Larger line numbers or hunks than this are treated as corrupt.
    static let limit = 10_000_000

    /// `@@ -a,b +c,d @@` → (c, d); d defaults to 1.
    static func newRange(_ header: Substring) -> (Int, Int)? {
        guard let plus = header.split(separator: " ").first(where: { $0.hasPrefix("+") }) else { return nil }
        let parts = plus.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
        guard let start = parts.first.flatMap({ Int($0) }) else { return nil }
        let count = parts.count > 1 ? Int(parts[1]) : 1
        // Bounds keep a hostile or corrupt diff from overflowing or allocating without limit.
        guard let count, (0...limit).contains(start), (0...limit).contains(count) else { return nil }
        return (start, count)
    }

    /// Git quotes paths with unusual bytes: `"b/caf\303\251.py"`. Undo the C-style escapes.
    static func unquote(_ path: Substring) -> String {
        guard path.count >= 2, path.first == "\"", path.last == "\"" else { return String(path) }
        var bytes: [UInt8] = []
        var input = Array(path.utf8.dropFirst().dropLast())[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.popFirst() else {
                bytes.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "n"): bytes.append(0x0a)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(next - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let digit = input.first, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { break }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                    input.removeFirst()
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            default: bytes.append(next)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    /// Git appends a tab after paths containing spaces in `---`/`+++` lines.
    fileprivate func trimmingTrailingTab() -> Substring {
        var view = self
        while view.last == "\t" || view.last == "\r" { view = view.dropLast() }
        return view
    }
}
