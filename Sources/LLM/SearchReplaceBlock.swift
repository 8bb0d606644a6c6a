import Support

/// One `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` block of a reply, with the path on the
/// line before it (fence lines and blank lines in between are skipped). A block without a path
/// line edits the previous block's file.
struct SearchReplaceBlock: Equatable {
    /// 1-based position in the reply, for error messages.
    var number: Int
    var path: String
    var search: [String]
    var replace: [String]

    /// Every block in `reply`; empty when it holds none. Throws `.llmEdits` for a block that is
    /// not closed or has no path.
    static func parse(_ reply: String) throws -> [SearchReplaceBlock] {
        let lines = TextLines.splitDroppingCR(reply)
        var blocks: [SearchReplaceBlock] = []
        var index = 0
        var previousEnd = 0
        while index < lines.count {
            guard isMarker(lines[index], "<", "SEARCH") else {
                index += 1
                continue
            }
            let number = blocks.count + 1
            guard let path = pathLine(before: index, after: previousEnd, in: lines) ?? blocks.last?.path else {
                throw SentinelError(.llmEdits, "block \(number): no file path on the line before <<<<<<< SEARCH")
            }
            var search: [String] = []
            var replace: [String] = []
            var cursor = index + 1
            while cursor < lines.count, !isDivider(lines[cursor]) {
                search.append(lines[cursor])
                cursor += 1
            }
            cursor += 1
            while cursor < lines.count, !isMarker(lines[cursor], ">", "REPLACE") {
                replace.append(lines[cursor])
                cursor += 1
            }
            guard cursor < lines.count else {
                throw SentinelError(.llmEdits, "block \(number) (\(path)): not closed by ======= and >>>>>>> REPLACE")
            }
            blocks.append(SearchReplaceBlock(number: number, path: path, search: search, replace: replace))
            index = cursor + 1
            previousEnd = index
        }
        return blocks
    }

    /// `<<<<<<< SEARCH` or `>>>>>>> REPLACE`: five to nine marker characters, then the word.
    static func isMarker(_ line: String, _ character: Character, _ word: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let run = trimmed.prefix { $0 == character }.count
        return (5...9).contains(run) && trimmed.dropFirst(run).trimmingCharacters(in: .whitespaces) == word
    }

    static func isDivider(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return (5...9).contains(trimmed.count) && trimmed.allSatisfy { $0 == "=" }
    }

    /// The path named on the nearest line above `index` (not above `floor`) that is neither
    /// blank nor a fence, tidied of Markdown decoration; nil when that line is prose.
    static func pathLine(before index: Int, after floor: Int, in lines: [String]) -> String? {
        var cursor = index - 1
        while cursor >= floor {
            let line = lines[cursor].trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("```") || line.hasPrefix("~~~") {
                cursor -= 1
                continue
            }
            return tidyPath(line)
        }
        return nil
    }

    static func tidyPath(_ line: String) -> String? {
        var text = Substring(line)
        text = text.drop { "#*`> ".contains($0) }
        while let last = text.last, "*`: ".contains(last) { text = text.dropLast() }
        for label in ["file:", "path:", "filename:"] where text.lowercased().hasPrefix(label) {
            text = text.dropFirst(label.count).drop { $0 == " " || $0 == "`" }
        }
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else { return nil }
        return String(text)
    }
}
