/// A quick pass over a file's text for the names it imports (`from a.b import c, d`,
/// `import a.b`), before any parsing: a project scan summarises only the functions another module
/// imports, which is a small part of a large tree.
enum ImportScan {
    /// (module as written, name or "*") pairs; relative modules keep their dots.
    static func imports(in text: String) -> [(module: String, name: String)] {
        var out: [(String, String)] = []
        var pending = ""
        var open = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if open {
                pending += " " + line
                if line.contains(")") {
                    open = false
                    out += parse(pending)
                    pending = ""
                }
                continue
            }
            guard line.hasPrefix("from ") || line.hasPrefix("import ") else { continue }
            let statement = String(line.split(separator: "#", maxSplits: 1).first ?? line[...])
            if statement.contains("("), !statement.contains(")") {
                open = true
                pending = statement
                continue
            }
            out += parse(statement)
        }
        return out
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
