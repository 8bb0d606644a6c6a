/// Building edits and their descriptions.
extension RepairFile {
    /// Longest text quoted in a description; longer spans are shortened with `…`.
    static let snippetLength = 60

    /// An edit replacing bytes `start..<end` with `replacement`, described as
    /// "line N: `old` → `new`".
    func replacing(_ start: Int, _ end: Int, with replacement: String, line: Int) -> RepairEdit {
        let edit = SourceEdit(start: start, end: end, replacement: replacement)
        return RepairEdit(
            line: line, edits: [edit], description: "line \(line): `\(snippet(text(start, end)))` → `\(snippet(replacement))`")
    }

    /// An edit made of `edits`, described by how the span `start..<end` (which holds them all) reads
    /// before and after: "line N: `if ready:` → `if not ready:`".
    func changing(_ start: Int, _ end: Int, by edits: [SourceEdit], line: Int) -> RepairEdit {
        let after = applying(edits, within: start, end)
        return RepairEdit(
            line: line, edits: edits, description: "line \(line): `\(snippet(text(start, end)))` → `\(snippet(after))`")
    }

    /// The text of `start..<end` with `edits` (all inside it) applied.
    func applying(_ edits: [SourceEdit], within start: Int, _ end: Int) -> String {
        var out: [UInt8] = []
        var position = start
        for edit in edits.sorted(by: { $0.start < $1.start }) {
            out += bytes[position..<edit.start]
            out += Array(edit.replacement.utf8)
            position = edit.end
        }
        out += bytes[position..<end]
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` on one line (each line break and the indentation after it become one space), shortened.
    func snippet(_ text: String) -> String {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let joined = lines.enumerated().map { index, line in
            index == 0 ? Substring(line) : line.drop { $0 == " " || $0 == "\t" }
        }.joined(separator: " ")
        return joined.count > Self.snippetLength ? String(joined.prefix(Self.snippetLength - 1)) + "…" : joined
    }
}
