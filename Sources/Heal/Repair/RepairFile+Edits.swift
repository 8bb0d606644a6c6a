import PythonSyntax

/// Building edits and their descriptions.
extension RepairFile {
    /// Longest text quoted in a description; longer spans are shortened with `…` (never cut
    /// inside a bracket pair or a string).
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

    /// `text` on one line (``PythonSnippet/oneLine(_:)``), shortened so that every bracket and
    /// quote it shows is closed (``PythonSnippet/shortened(_:limit:)``).
    func snippet(_ text: String) -> String {
        PythonSnippet.shortened(PythonSnippet.oneLine(text), limit: Self.snippetLength)
    }
}
