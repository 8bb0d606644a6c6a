import Web

/// A tolerant HTML tokenizer after the WHATWG state machine, simplified: tags, attributes,
/// comments, doctypes, raw-text and RCDATA elements. It never backtracks, so adversarial input
/// (megabytes of `<`, unterminated comments or quotes) is read in one linear pass; a tag or
/// comment left open at the end of input runs to the end, as in browsers.
struct HTMLTokenizer {
    /// The most attributes kept per tag; the rest are read and dropped.
    static let defaultMaxAttributes = 256
    /// The longest tag name kept; longer names are cut (they never name a known element).
    static let maxNameBytes = 1_024

    let bytes: [UInt8]
    /// Whether `<noscript>` is raw text, as in a browser running scripts (true for deciding
    /// what executes) or markup, as a crawler reading links wants (false).
    let scripting: Bool
    let maxAttributes: Int
    private(set) var position = 0
    /// The element whose raw-text or RCDATA content comes next.
    private var pendingContent: (name: String, kind: HTMLToken.Kind, toEnd: Bool)?

    init(bytes: [UInt8], scripting: Bool, maxAttributes: Int = defaultMaxAttributes) {
        self.bytes = bytes
        self.scripting = scripting
        self.maxAttributes = maxAttributes
    }

    /// The next token, nil at the end of input.
    mutating func next() -> HTMLToken? {
        if let pending = pendingContent {
            pendingContent = nil
            let end = pending.toEnd ? bytes.count : rawTextEnd(name: pending.name, from: position)
            if end > position {
                let token = HTMLToken(kind: pending.kind, range: position..<end, name: pending.name, contentRange: position..<end)
                position = end
                return token
            }
        }
        guard position < bytes.count else { return nil }
        let start = position
        var index = position
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), startsMarkup(at: index) {
                if index > start { break }
                return markup(at: index)
            }
            index += 1
        }
        position = index
        return HTMLToken(kind: .text, range: start..<index, contentRange: start..<index)
    }

    /// Whether the `<` at `index` opens a tag, comment or declaration rather than being text.
    private func startsMarkup(at index: Int) -> Bool {
        guard index + 1 < bytes.count else { return false }
        let next = bytes[index + 1]
        if HTMLBytes.isAlpha(next) || next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return true }
        return next == UInt8(ascii: "/") && index + 2 < bytes.count
    }

    private mutating func markup(at index: Int) -> HTMLToken {
        let next = bytes[index + 1]
        if next == UInt8(ascii: "!") {
            if HTMLBytes.hasPrefix(bytes, at: index + 2, "--") { return comment(at: index) }
            if HTMLBytes.hasPrefix(bytes, at: index + 2, "doctype", caseInsensitive: true) {
                return declaration(at: index, kind: .doctype, contentStart: index + 9)
            }
            return declaration(at: index, kind: .comment, contentStart: index + 2)
        }
        if next == UInt8(ascii: "?") { return declaration(at: index, kind: .comment, contentStart: index + 1) }
        if next == UInt8(ascii: "/") {
            guard HTMLBytes.isAlpha(bytes[index + 2]) else {
                return declaration(at: index, kind: .comment, contentStart: index + 2)
            }
            return tag(at: index, nameStart: index + 2, kind: .endTag)
        }
        return tag(at: index, nameStart: index + 1, kind: .startTag)
    }

    /// `<!-- ... -->` (also closed by `--!>`; `<!-->` and `<!--->` are empty comments).
    private mutating func comment(at index: Int) -> HTMLToken {
        let contentStart = index + 4
        for shortClose in [">", "->"] where HTMLBytes.hasPrefix(bytes, at: contentStart, shortClose) {
            position = contentStart + shortClose.utf8.count
            return HTMLToken(kind: .comment, range: index..<position, contentRange: contentStart..<contentStart)
        }
        var cursor = contentStart
        while cursor < bytes.count {
            if bytes[cursor] == UInt8(ascii: "-"), HTMLBytes.hasPrefix(bytes, at: cursor, "-->") {
                position = cursor + 3
                return HTMLToken(kind: .comment, range: index..<position, contentRange: contentStart..<cursor)
            }
            if bytes[cursor] == UInt8(ascii: "-"), HTMLBytes.hasPrefix(bytes, at: cursor, "--!>") {
                position = cursor + 4
                return HTMLToken(kind: .comment, range: index..<position, contentRange: contentStart..<cursor)
            }
            cursor += 1
        }
        position = bytes.count
        return HTMLToken(kind: .comment, range: index..<position, contentRange: contentStart..<position)
    }

    /// A doctype or bogus comment: everything up to the next `>`.
    private mutating func declaration(at index: Int, kind: HTMLToken.Kind, contentStart: Int) -> HTMLToken {
        let start = min(contentStart, bytes.count)
        let close = bytes[start...].firstIndex(of: UInt8(ascii: ">"))
        position = close.map { $0 + 1 } ?? bytes.count
        return HTMLToken(kind: kind, range: index..<position, contentRange: start..<(close ?? bytes.count))
    }

    private mutating func tag(at index: Int, nameStart: Int, kind: HTMLToken.Kind) -> HTMLToken {
        var cursor = nameStart
        while cursor < bytes.count, !HTMLBytes.isTagNameEnd(bytes[cursor]) { cursor += 1 }
        var token = HTMLToken(kind: kind, range: index..<index)
        token.nameRange = nameStart..<cursor
        token.name = HTMLBytes.lowercased(bytes[nameStart..<min(cursor, nameStart + Self.maxNameBytes)])
        let limit = kind == .startTag ? maxAttributes : 0
        var kept: [HTMLAttribute] = []
        let scan = HTMLAttributeScanner.scan(bytes, from: cursor) { attribute in
            if kept.count < limit { kept.append(attribute) }
        }
        token.attributes = kept
        token.terminated = scan.terminated
        token.range = index..<scan.end
        position = scan.end
        if kind == .startTag, scan.terminated, let content = HTMLElements.contentKind(of: token.name, scripting: scripting) {
            pendingContent = (token.name, content, token.name == "plaintext")
        }
        return token
    }

    /// Where the raw text of `name` ends: the next `</name` followed by whitespace, `/` or `>`
    /// (any case), else the end of input.
    private func rawTextEnd(name: String, from start: Int) -> Int {
        let nameBytes = Array(name.utf8)
        var cursor = start
        while cursor + 1 < bytes.count {
            if bytes[cursor] == UInt8(ascii: "<"), bytes[cursor + 1] == UInt8(ascii: "/"),
                HTMLBytes.hasPrefix(bytes, at: cursor + 2, name, caseInsensitive: true)
            {
                let after = cursor + 2 + nameBytes.count
                if after < bytes.count, HTMLBytes.isTagNameEnd(bytes[after]) { return cursor }
            }
            cursor += 1
        }
        return bytes.count
    }
}
