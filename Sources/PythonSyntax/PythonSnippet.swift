/// Python code shown to people in one line: a summary, a proposal's description. Shortening
/// never cuts a bracket pair or a string in two: what is left out of a pair or a literal is `…`
/// inside it (`requests.post(…)`, `"…"`), and a cut elsewhere falls where no bracket or string
/// is open, so every `(`, `[`, `{` and quote shown is closed.
public enum PythonSnippet {
    /// `text` on one line: each line's comment and the line breaks dropped, a line after an
    /// opening bracket or before a closing one joined without a space (and a trailing comma
    /// before the closing bracket dropped), other lines joined by one space.
    public static func oneLine(_ text: String) -> String {
        var out = ""
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = Substring(withoutComment(String(raw)))
            line = line.drop { $0 == " " || $0 == "\t" }
            while let last = line.last, last == " " || last == "\t" { line = line.dropLast() }
            guard !line.isEmpty else { continue }
            if out.isEmpty || out.last.map({ "([{".contains($0) }) == true {
                out += line
            } else if let first = line.first, ")]}".contains(first) {
                if out.last == "," { out.removeLast() }
                out += line
            } else {
                out += " " + line
            }
        }
        return out
    }

    /// `text` (one line) in at most `limit` characters: the contents of the deepest bracket
    /// pairs become `…` first (the longest first at each depth), then those of the longest string
    /// literals, and when that is not enough the text is cut at the last space where nothing is
    /// open, with ` …` after it.
    public static func shortened(_ text: String, limit: Int) -> String {
        var characters = Array(text)
        guard characters.count > limit else { return text }
        while characters.count > limit, let pair = elidable(in: characters, brackets: true) {
            characters.replaceSubrange((pair.lowerBound + 1)..<pair.upperBound, with: ["…"])
        }
        while characters.count > limit, let pair = elidable(in: characters, brackets: false) {
            characters.replaceSubrange((pair.lowerBound + 1)..<pair.upperBound, with: ["…"])
        }
        guard characters.count > limit else { return String(characters) }
        let scan = Scan(characters)
        var cut = min(characters.count - 1, limit - 2)
        while cut > 0, !(characters[cut] == " " && scan.depth[cut] == 0 && !scan.quoted[cut]) { cut -= 1 }
        // No space where nothing is open (one long name): the elided text, longer than asked.
        guard cut > 0 else { return String(characters) }
        return String(characters[..<cut]) + " …"
    }

    /// The `(` ... `)` (or quote ... quote) pair whose contents go next: the deepest bracket pair,
    /// the longest at that depth, or the longest string literal; its bounds are the two
    /// delimiters' indices. Nil when none has more than one character inside.
    private static func elidable(in characters: [Character], brackets: Bool) -> ClosedRange<Int>? {
        let scan = Scan(characters)
        let pairs = brackets ? scan.brackets : scan.strings
        return pairs.filter { $0.range.upperBound - $0.range.lowerBound > 2 }.max { a, b in
            if brackets, a.depth != b.depth { return a.depth < b.depth }
            return a.range.upperBound - a.range.lowerBound < b.range.upperBound - b.range.lowerBound
        }?.range
    }

    /// `line` without its `#` comment (a `#` inside a string is not one).
    private static func withoutComment(_ line: String) -> String {
        let characters = Array(line)
        let scan = Scan(characters)
        guard let hash = characters.indices.first(where: { characters[$0] == "#" && !scan.quoted[$0] }) else { return line }
        return String(characters[..<hash])
    }

    /// Where brackets and string literals are in a line of code.
    private struct Scan {
        /// Bracket depth before each character (and one past the end).
        var depth: [Int]
        /// Whether each character (and one past the end) lies inside a string literal.
        var quoted: [Bool]
        /// Matched bracket pairs with the depth inside them.
        var brackets: [(range: ClosedRange<Int>, depth: Int)] = []
        /// String literals from quote to quote.
        var strings: [(range: ClosedRange<Int>, depth: Int)] = []

        init(_ characters: [Character]) {
            depth = Array(repeating: 0, count: characters.count + 1)
            quoted = Array(repeating: false, count: characters.count + 1)
            var open: [(Character, Int)] = []
            var quote: (Character, Int)?
            var index = 0
            while index < characters.count {
                let character = characters[index]
                depth[index] = open.count
                quoted[index] = quote != nil
                if let (mark, start) = quote {
                    if character == "\\" {
                        if index + 1 < characters.count {
                            depth[index + 1] = open.count
                            quoted[index + 1] = true
                        }
                        index += 2
                        continue
                    }
                    if character == mark {
                        strings.append((start...index, open.count))
                        quote = nil
                    }
                } else if character == "\"" || character == "'" {
                    quote = (character, index)
                    quoted[index] = true
                } else if "([{".contains(character) {
                    open.append((character, index))
                } else if let closing = ")]}".firstIndex(of: character) {
                    let opening = Array("([{")[")]}".distance(from: ")]}".startIndex, to: closing)]
                    if let last = open.last, last.0 == opening {
                        open.removeLast()
                        brackets.append((last.1...index, open.count + 1))
                        depth[index] = open.count
                    }
                }
                index += 1
            }
            depth[characters.count] = open.count
            quoted[characters.count] = quote != nil
        }
    }
}
