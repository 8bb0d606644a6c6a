/// What a token is; punctuators and keywords are told apart by their text.
enum JSTokenKind: UInt8, Sendable {
    /// An identifier or a keyword (`text` decoded; `escaped` when it had `\u` escapes).
    case name
    /// `#name` (`text` with the `#`).
    case privateName
    /// An operator or punctuation mark.
    case punct
    /// A number (`text` as written).
    case number
    /// A BigInt (`text` as written, with its `n`).
    case bigint
    /// A string (`text` decoded).
    case string
    /// A template part: `` `...` ``, `` `...${ ``, `` }...${ `` or `` }...` `` (`text` cooked).
    case template
    /// `/pattern/flags` (`text` the pattern), only after a rescan where an expression may start.
    case regex
    /// Text between JSX tags (`text` with entities decoded).
    case jsxText
    /// End of input.
    case end
}

/// One token: offsets into the file's bytes, and whether a line break came before it (ASI and the
/// restricted productions read that).
struct JSToken: Sendable {
    var kind: JSTokenKind
    var text: String
    var start: Int
    var end: Int
    var newlineBefore: Bool
    /// An identifier written with escapes is never a keyword.
    var escaped = false
    /// A template part ending with `` ` `` (rather than `${`); a cooked value that is invalid is nil.
    var templateTail = false
    var cookedInvalid = false

    /// Whether this is punctuator or unescaped word `s`. Lengths first: the parser asks each token
    /// about many keywords, and `String`'s `==` on two different short strings took its slow path
    /// (canonical equivalence, 4 % of parsing). JavaScript compares code points, so a token that
    /// is only canonically equivalent to `s` (a Kelvin sign for `K`) is not `s` either.
    @inline(__always) func `is`(_ s: String) -> Bool {
        (kind == .punct || (kind == .name && !escaped)) && text.utf8.count == s.utf8.count && text.utf8.elementsEqual(s.utf8)
    }
}
