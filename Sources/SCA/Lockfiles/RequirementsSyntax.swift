import Foundation

/// The line-level syntax of requirements files, apart from what the lines mean: logical lines,
/// option words, include paths, name normalisation.
extension RequirementsParser {
    /// PEP 503 normalisation, used only to match constraints to requirements.
    static func normalized(_ name: String) -> String {
        var out = ""
        var lastWasSeparator = false
        for c in name.lowercased() {
            if c == "-" || c == "_" || c == "." {
                if !lastWasSeparator { out.append("-") }
                lastWasSeparator = true
            } else {
                out.append(c)
                lastWasSeparator = false
            }
        }
        return out
    }

    /// `-r file`, `-rfile`, `--requirement=file`, `--requirement file`.
    static func splitOption(_ words: String) -> (String, String?) {
        let trimmed = words.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("--") {
            if let eq = trimmed.firstIndex(of: "="), !trimmed[..<eq].contains(" ") {
                return (
                    String(trimmed[..<eq]),
                    String(trimmed[trimmed.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
                )
            }
            if let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) {
                return (String(trimmed[..<space]), String(trimmed[space...]).trimmingCharacters(in: .whitespaces))
            }
            return (trimmed, nil)
        }
        let flag = String(trimmed.prefix(2))
        let rest = String(trimmed.dropFirst(2)).trimmingCharacters(in: .whitespaces)
        return (flag, rest.isEmpty ? nil : rest)
    }

    /// Joins `target` to the directory of `file` and folds `.` and `..` segments.
    static func resolve(_ target: String, relativeTo file: String) -> String {
        let joined: String
        if target.hasPrefix("/") {
            joined = target
        } else {
            let directory = (file as NSString).deletingLastPathComponent
            joined = directory.isEmpty ? target : directory + "/" + target
        }
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return (joined.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// Physical lines joined at trailing backslashes, comments removed, each numbered by its
    /// first physical line. One pass over the bytes: these files can be long.
    static func logicalLines(_ bytes: [UInt8]) -> [TextLines.Line] {
        var storage: [UInt8] = []
        storage.reserveCapacity(bytes.count)
        var spans: [(number: Int, start: Int, end: Int)] = []
        bytes.withUnsafeBufferPointer { b in
            var lineStart = 0
            var number = 1
            var logicalStart = -1
            var logicalNumber = 0
            func finishPhysical(_ end: Int) {
                // The content of [lineStart, end): comment stripped, continuation noted.
                var e = end
                var isCommentLine = true
                var k = lineStart
                while k < e {
                    if b[k] == UInt8(ascii: "#") { break }
                    if b[k] != 0x20, b[k] != 0x09 {
                        isCommentLine = false
                        break
                    }
                    k += 1
                }
                if k == e { isCommentLine = false }
                let continues = !isCommentLine && e > lineStart && b[e - 1] == UInt8(ascii: "\\")
                if continues { e -= 1 }
                // pip's rule: `#` at the start or after whitespace begins a comment.
                var previous: UInt8 = 0x20
                var c = lineStart
                while c < e {
                    if b[c] == UInt8(ascii: "#"), previous == 0x20 || previous == 0x09 {
                        e = c
                        break
                    }
                    previous = b[c]
                    c += 1
                }
                if logicalStart < 0 {
                    logicalStart = storage.count
                    logicalNumber = number
                }
                if e > lineStart { storage.append(contentsOf: UnsafeBufferPointer(rebasing: b[lineStart..<e])) }
                if !continues {
                    spans.append((logicalNumber, logicalStart, storage.count))
                    logicalStart = -1
                }
            }
            for line in TextLines.ranges(bytes) {
                lineStart = line.range.lowerBound
                number = line.number
                finishPhysical(line.range.upperBound)
            }
            if logicalStart >= 0 { spans.append((logicalNumber, logicalStart, storage.count)) }
        }
        return spans.map { TextLines.Line(number: $0.number, bytes: storage[$0.start..<$0.end].trimmed) }
    }
}
