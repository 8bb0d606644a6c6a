import Foundation
import Support

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

    /// `-r file`, `-rfile`, `--requirement=file`, `--requirement file`, split as pip splits them
    /// (`ShellWords`: quotes and backslashes). Nil as the argument where pip would fail to split
    /// (an unclosed quote) or none is given.
    static func splitOption(_ words: String) -> (String, String?) {
        guard let parts = ShellWords.split(words), let first = parts.first else {
            let flag = words.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            return (flag.hasPrefix("--") ? String(flag.prefix { $0 != "=" }) : String(flag.prefix(2)), nil)
        }
        if first.hasPrefix("--") {
            if let eq = first.firstIndex(of: "=") { return (String(first[..<eq]), String(first[first.index(after: eq)...])) }
            return (first, parts.count > 1 ? parts[1] : nil)
        }
        let flag = String(first.prefix(2))
        let rest = String(first.dropFirst(2))
        if !rest.isEmpty { return (flag, rest) }
        return (flag, parts.count > 1 ? parts[1] : nil)
    }

    /// Joins `target` to the directory of `file` and folds `.` and `..` segments.
    static func resolve(_ target: String, relativeTo file: String) -> String {
        let joined: String
        if target.hasPrefix("/") {
            joined = target
        } else {
            let directory = PathText.directory(of: file)
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

    /// pip's `join_lines` and `ignore_comments`: a line ending in `\\` (and not a comment) is
    /// joined to the next before comments are cut, so a comment on a continued line swallows
    /// the line after it; each logical line keeps the number of its first physical line.
    static func logicalLines(_ lines: [(number: Int, text: String)]) -> [TextLines.Line] {
        var result: [TextLines.Line] = []
        // The continued line being built, appended to in place: long chains stay linear.
        var pendingNumber: Int?
        var pending = ""
        func emit(_ number: Int, _ text: String) {
            let content = strippedComment(text)
            if !content.isEmpty { result.append(TextLines.Line(number: number, bytes: ArraySlice(content.utf8))) }
        }
        for (number, line) in lines {
            let isComment = startsComment(line)
            if line.unicodeScalars.last != "\\" || isComment {
                let text = isComment ? " " + line : line
                if let started = pendingNumber {
                    pending += text
                    emit(started, pending)
                    pendingNumber = nil
                    pending = ""
                } else {
                    emit(number, text)
                }
            } else {
                if pendingNumber == nil { pendingNumber = number }
                pending.unicodeScalars.append(contentsOf: line.unicodeScalars.trimming { $0 == "\\" })
            }
        }
        if let started = pendingNumber { emit(started, pending) }
        return result
    }

    /// `COMMENT_RE.match`: the line is a comment once leading whitespace is skipped.
    private static func startsComment(_ line: String) -> Bool {
        line.unicodeScalars.first(where: { !PipText.isSpace($0) }) == "#"
    }

    /// `COMMENT_RE.sub("", line).strip()`: cut at the first `#` that starts the line or follows
    /// whitespace, then strip Unicode whitespace.
    private static func strippedComment(_ line: String) -> String {
        var kept = String.UnicodeScalarView()
        var previousIsSpace = true
        for scalar in line.unicodeScalars {
            if scalar == "#", previousIsSpace { break }
            previousIsSpace = PipText.isSpace(scalar)
            kept.append(scalar)
        }
        return String(kept.trimming(PipText.isSpace))
    }
}

extension String.UnicodeScalarView {
    /// Without the leading and trailing scalars that match `drop`.
    fileprivate func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String.UnicodeScalarView {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else {
            return String.UnicodeScalarView()
        }
        return String.UnicodeScalarView(self[first...last])
    }
}
