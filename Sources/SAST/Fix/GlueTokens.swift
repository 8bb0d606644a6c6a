/// The text between the kept pieces of a fix (the template's, or the file's at the same place) as
/// tokens, each with the layout before it: spaces, line breaks, continuation lines and comments.
///
/// A small scanner rather than the Python lexer: glue is a fragment (`(`, `, verify=False, `)`
/// that need not lex as a program; it only has to split code into comparable tokens.
struct GlueTokens: Sendable, Equatable {
    /// One token and the layout that precedes it.
    struct Token: Sendable, Equatable {
        var layout: String
        var text: String
    }

    var tokens: [Token]
    /// Layout after the last token.
    var trailing: String

    init(_ glue: String) {
        let s = Array(glue.unicodeScalars)
        var tokens: [Token] = []
        var layout = ""
        var i = 0
        func take(_ from: Int, _ to: Int) -> String {
            var out = String.UnicodeScalarView()
            out.append(contentsOf: s[from..<to])
            return String(out)
        }
        while i < s.count {
            let c = s[i]
            if c == " " || c == "\t" || c == "\u{0C}" || c == "\n" || c == "\r" {
                layout.unicodeScalars.append(c)
                i += 1
            } else if c == "\\", i + 1 < s.count, s[i + 1] == "\n" || s[i + 1] == "\r" {
                layout.unicodeScalars.append(c)
                i += 1
            } else if c == "#" {
                let start = i
                while i < s.count, s[i] != "\n", s[i] != "\r" { i += 1 }
                layout += take(start, i)
            } else {
                let start = i
                i = Self.tokenEnd(s, from: i)
                tokens.append(Token(layout: layout, text: take(start, i)))
                layout = ""
            }
        }
        self.tokens = tokens
        self.trailing = layout
    }

    /// The index just past the token starting at `i`: a string literal (prefix and quotes
    /// included), a run of identifier characters, or one other character.
    private static func tokenEnd(_ s: [Unicode.Scalar], from i: Int) -> Int {
        var j = i
        while j < s.count, MetavariableTemplate.isWordScalar(s[j]) { j += 1 }
        let prefix = j - i
        let isPrefix = prefix <= 2 && s[i..<j].allSatisfy { "rRbBuUfFtT".unicodeScalars.contains($0) }
        if j < s.count, s[j] == "'" || s[j] == "\"", isPrefix { return stringEnd(s, quoteAt: j) }
        if prefix > 0 { return j }
        return s[i] == "'" || s[i] == "\"" ? stringEnd(s, quoteAt: i) : i + 1
    }

    /// The index just past the string literal whose opening quote is at `q` (the end of the glue
    /// when it is not closed there).
    private static func stringEnd(_ s: [Unicode.Scalar], quoteAt q: Int) -> Int {
        let quote = s[q]
        let triple = q + 2 < s.count && s[q + 1] == quote && s[q + 2] == quote
        var j = q + (triple ? 3 : 1)
        while j < s.count {
            if s[j] == "\\" {
                j += 2
                continue
            }
            if s[j] == quote {
                if !triple { return j + 1 }
                if j + 2 < s.count, s[j + 1] == quote, s[j + 2] == quote { return j + 3 }
            } else if !triple, s[j] == "\n" || s[j] == "\r" {
                return j
            }
            j += 1
        }
        return s.count
    }

    /// Whether `layout` ends a logical line: a line break not continued by a backslash (a
    /// backslash in a comment continues nothing).
    static func breaksLine(_ layout: String) -> Bool {
        let s = Array(layout.unicodeScalars)
        var i = 0
        while i < s.count {
            switch s[i] {
            case "\\" where i + 1 < s.count && (s[i + 1] == "\n" || s[i + 1] == "\r"):
                i += s[i + 1] == "\r" && i + 2 < s.count && s[i + 2] == "\n" ? 3 : 2
            case "#":
                while i < s.count, s[i] != "\n", s[i] != "\r" { i += 1 }
            case "\n", "\r":
                return true
            default:
                i += 1
            }
        }
        return false
    }

    /// The first line break of `layout` (`\n` or `\r\n`) when it ends a logical line, else nil.
    static func lineBreak(in layout: String) -> String? {
        guard breaksLine(layout) else { return nil }
        let s = Array(layout.unicodeScalars)
        guard let at = s.firstIndex(where: { $0 == "\n" || $0 == "\r" }) else { return nil }
        return s[at] == "\r" && at + 1 < s.count && s[at + 1] == "\n" ? "\r\n" : String(Character(s[at]))
    }
}
