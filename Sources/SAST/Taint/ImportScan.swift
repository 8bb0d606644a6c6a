/// A quick pass over a file's text for the names it imports (`from a.b import c, d`,
/// `import a.b`), before any parsing: a project scan summarises only the functions another module
/// imports, which is a small part of a large tree.
enum ImportScan {
    /// (module as written, name or "*") pairs; relative modules keep their dots.
    static func imports(in text: String) -> [(module: String, name: String)] {
        var out: [(String, String)] = []
        var pending = ""
        var open = false
        var text = text
        // Bytes, not Characters: most lines are skipped after a look at their first letters.
        text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                defer { start = end + 1 }
                var first = start
                while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
                guard open || Self.startsStatement(bytes, first, end) else { continue }
                let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self)
                if open {
                    pending += " " + line
                    if line.contains(")") {
                        open = false
                        out += parse(pending)
                        pending = ""
                    }
                    continue
                }
                let statement = String(line.split(separator: "#", maxSplits: 1).first ?? line[...])
                if statement.contains("("), !statement.contains(")") {
                    open = true
                    pending = statement
                    continue
                }
                out += parse(statement)
            }
        }
        return out
    }

    private static let fromWord = Array("from ".utf8)
    private static let importWord = Array("import ".utf8)

    /// Whether the line at `first` starts with `from ` or `import `.
    private static func startsStatement(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Bool {
        for word in [fromWord, importWord] where end - first >= word.count {
            if word.indices.allSatisfy({ bytes[first + $0] == word[$0] }) { return true }
        }
        return false
    }

    private static func parse(_ statement: String) -> [(String, String)] {
        let words = statement.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ")
            .replacingOccurrences(of: "\\", with: " ")
        let parts = words.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = parts.first else { return [] }
        if first == "import" {
            return parts.dropFirst().joined(separator: " ").split(separator: ",").compactMap { item in
                item.split(separator: " ").first.map { (String($0), "*") }
            }
        }
        guard first == "from", parts.count >= 4, parts[2] == "import" else { return [] }
        let module = parts[1]
        return parts.dropFirst(3).joined(separator: " ").split(separator: ",").compactMap { item in
            item.split(separator: " ").first.map { (module, String($0)) }
        }
    }
}
