import Support

/// The literal text every match of a regular expression must contain, so that most texts are
/// rejected by a byte search instead of running the expression (the prefilter RE2, ripgrep and
/// Semgrep use).
///
/// `required` is a conjunction of disjunctions: for each entry, a matched text contains at least
/// one of its strings. Strings are UTF-8 with ASCII letters lowercased and are compared with a
/// haystack lowercased the same way, so a case-insensitive expression needs no special case for
/// ASCII. Unknown or unusual syntax (comment mode, nested sets, escapes this reader does not
/// know) yields no requirement at all: the prefilter is sound, never complete.
struct RegexLiterals: Sendable, Hashable {
    /// Each entry: one of these strings occurs in every text the expression matches.
    let required: [[[UInt8]]]
    /// `(?i)` somewhere: ICU folds some non-ASCII letters to ASCII ones (the Kelvin sign to `k`),
    /// so a haystack with non-ASCII bytes is never rejected.
    let caseInsensitive: Bool
    /// `required`'s entries prepared for a single pass over a text each.
    private let searches: [NeedleSet]

    /// No requirement: every text may match.
    static let none = RegexLiterals(required: [LiteralSet](), caseInsensitive: false)

    /// The requirement of an ICU expression (as `NSRegularExpression` reads it).
    init(pattern: String) {
        var reader = RegexLiteralReader(Array(pattern.unicodeScalars))
        guard let info = reader.readAll() else {
            self = .none
            return
        }
        var sets = info.required
        if let exact = info.exact { sets.append(exact) }
        let usable = sets.filter { set in
            !set.isEmpty && !set.contains([]) && !(reader.caseInsensitive && set.contains { $0.contains { $0 >= 0x80 } })
        }
        self.init(
            required: RegexLiteralReader.strongest(RegexLiteralReader.withoutImplied(usable), keep: 3),
            caseInsensitive: reader.caseInsensitive)
    }

    /// What every one of `parts` requires.
    init(allOf parts: [RegexLiterals]) {
        self.init(
            required: RegexLiteralReader.strongest(parts.flatMap { $0.required.map(LiteralSet.init) }, keep: 4),
            caseInsensitive: parts.contains { $0.caseInsensitive })
    }

    /// What any one of `parts` requires: one string of each part's strongest set.
    init(anyOf parts: [RegexLiterals]) {
        var union = LiteralSet()
        for part in parts {
            guard let best = RegexLiteralReader.strongest(part.required.map(LiteralSet.init), keep: 1).first else {
                self = .none
                return
            }
            union.formUnion(best)
        }
        self.init(required: union.isEmpty ? [] : [union], caseInsensitive: parts.contains { $0.caseInsensitive })
    }

    /// A requirement read back (the rule index stores each entry's strings).
    init(required: [[[UInt8]]], caseInsensitive: Bool) {
        self.init(required: required.map(LiteralSet.init), caseInsensitive: caseInsensitive)
    }

    fileprivate init(required: [LiteralSet], caseInsensitive: Bool) {
        // Shortest strings first: they are found soonest.
        self.required = required.map { $0.sorted { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) } }
        self.caseInsensitive = caseInsensitive
        self.searches = self.required.map(NeedleSet.init)
    }

    /// Whether the expression can match `text`; false means it certainly does not.
    func mayMatch(_ text: String) -> Bool {
        if required.isEmpty { return true }
        var text = text
        return text.withUTF8 { mayMatch($0) }
    }

    /// Whether the expression can match the text with these UTF-8 bytes.
    func mayMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for search in searches {
            switch search.find(in: bytes) {
            case .found: continue
            // An absent entry was looked for in every byte, so the pass saw any non-ASCII one.
            case .absent(let sawNonASCII): return caseInsensitive && sawNonASCII
            }
        }
        return true
    }

    /// Whether `needle` (lowercased) occurs in `haystack` compared with ASCII letters lowercased.
    static func occurs(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if lower(haystack[i]) == first {
                var j = 1
                while j < needle.count, lower(haystack[i + j]) == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }

    /// ASCII lowercase; other bytes unchanged.
    @inline(__always) static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}

/// The strings of one ``RegexLiterals`` entry grouped by first byte, so that one pass over a text
/// finds whether any occurs (instead of one pass per string: docstrings are long).
private struct NeedleSet: Sendable, Hashable {
    /// The strings, ordered by first byte.
    private let needles: [[UInt8]]
    /// For each byte value, where its strings start in `needles` (257 entries: the last ends them).
    private let starts: [Int]
    /// Whether an empty string is among them: it occurs in every text.
    private let hasEmpty: Bool

    enum Outcome {
        case found
        case absent(sawNonASCII: Bool)
    }

    init(_ strings: [[UInt8]]) {
        needles = strings.filter { !$0.isEmpty }.sorted { a, b in a[0] != b[0] ? a[0] < b[0] : a.lexicographicallyPrecedes(b) }
        var starts = [Int](repeating: 0, count: 257)
        for needle in needles { starts[Int(needle[0]) + 1] += 1 }
        for i in 1..<starts.count { starts[i] += starts[i - 1] }
        self.starts = starts
        hasEmpty = strings.contains(where: \.isEmpty)
    }

    /// Whether one of the strings occurs in `haystack`, ASCII letters compared lowercased.
    func find(in haystack: UnsafeBufferPointer<UInt8>) -> Outcome {
        if hasEmpty { return .found }
        var high: UInt8 = 0
        return needles.withUnsafeBufferPointer { needles in
            starts.withUnsafeBufferPointer { starts in
                let count = haystack.count
                for i in 0..<count {
                    let byte = haystack[i]
                    high |= byte
                    let first = Int(RegexLiterals.lower(byte))
                    var k = starts[first]
                    let end = starts[first + 1]
                    while k < end {
                        let needle = needles[k]
                        if needle.count <= count - i {
                            var j = 1
                            while j < needle.count, RegexLiterals.lower(haystack[i + j]) == needle[j] { j += 1 }
                            if j == needle.count { return .found }
                        }
                        k += 1
                    }
                }
                return .absent(sawNonASCII: high >= 0x80)
            }
        }
    }
}

/// A small set of byte strings kept sorted and unique in an array: the reader's sets hold at
/// most ``RegexLiteralReader/maximumStrings`` short strings, where hashing every byte of every
/// string into a `Set` cost more than the comparisons a sorted array needs (most of loading a
/// rule set's regular expressions, issue 77).
struct LiteralSet: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral {
    /// The strings in lexicographic order (the empty string, when present, first).
    private(set) var strings: [[UInt8]]

    init() { strings = [] }

    init(_ strings: some Sequence<[UInt8]>) {
        var sorted = strings.sorted { $0.lexicographicallyPrecedes($1) }
        var unique = 0
        for i in sorted.indices where i == 0 || sorted[i] != sorted[unique - 1] {
            sorted.swapAt(unique, i)
            unique += 1
        }
        sorted.removeLast(sorted.count - unique)
        self.strings = sorted
    }

    init(arrayLiteral elements: [UInt8]...) { self.init(elements) }

    var count: Int { strings.count }
    var isEmpty: Bool { strings.isEmpty }
    func makeIterator() -> IndexingIterator<[[UInt8]]> { strings.makeIterator() }

    /// The length of the shortest string (0 for an empty set).
    var shortestLength: Int { strings.lazy.map(\.count).min() ?? 0 }

    func contains(_ string: [UInt8]) -> Bool {
        if string.isEmpty { return strings.first?.isEmpty == true }
        let at = insertionPoint(string)
        return at < strings.count && strings[at] == string
    }

    mutating func insert(_ string: [UInt8]) {
        let at = insertionPoint(string)
        if at < strings.count && strings[at] == string { return }
        strings.insert(string, at: at)
    }

    mutating func formUnion(_ other: LiteralSet) {
        if other.isEmpty { return }
        if isEmpty {
            self = other
            return
        }
        var merged: [[UInt8]] = []
        merged.reserveCapacity(count + other.count)
        var (i, j) = (0, 0)
        while i < strings.count || j < other.strings.count {
            if j == other.strings.count || (i < strings.count && strings[i].lexicographicallyPrecedes(other.strings[j])) {
                merged.append(strings[i])
                i += 1
            } else {
                if i < strings.count && strings[i] == other.strings[j] { i += 1 }
                merged.append(other.strings[j])
                j += 1
            }
        }
        strings = merged
    }

    func union(_ other: LiteralSet) -> LiteralSet {
        var out = self
        out.formUnion(other)
        return out
    }

    /// A fixed order among sets (their sorted strings compared in turn), for stable choices.
    func precedes(_ other: LiteralSet) -> Bool {
        strings.lexicographicallyPrecedes(other.strings) { $0.lexicographicallyPrecedes($1) }
    }

    /// The index where `string` is or would be.
    private func insertionPoint(_ string: [UInt8]) -> Int {
        var (low, high) = (0, strings.count)
        while low < high {
            let middle = (low + high) / 2
            if strings[middle].lexicographicallyPrecedes(string) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// What one piece of an expression tells about the text it matches.
private struct LiteralInfo {
    /// Every string the piece can match, when they are few (lowercased); `[]` stands for the
    /// empty match of an optional piece or an assertion.
    var exact: LiteralSet?
    /// Sets of which one string occurs in every match of the piece.
    var required: [LiteralSet] = []

    static let empty = LiteralInfo(exact: [[]])
    static let unknown = LiteralInfo(exact: nil)
}

/// A recursive-descent reader of ICU regular-expression syntax that keeps only literals.
/// Returns nil for anything it does not understand.
private struct RegexLiteralReader {
    private let scalars: [Unicode.Scalar]
    private var at = 0
    private(set) var caseInsensitive = false

    /// Products larger than this stop being enumerated.
    static let maximumStrings = 64
    static let maximumLength = 32

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    mutating func readAll() -> LiteralInfo? {
        guard let info = alternation(), at == scalars.count else { return nil }
        return info
    }

    private var peek: Unicode.Scalar? { at < scalars.count ? scalars[at] : nil }

    private mutating func next() -> Unicode.Scalar? {
        guard at < scalars.count else { return nil }
        at += 1
        return scalars[at - 1]
    }

    private mutating func alternation() -> LiteralInfo? {
        guard var branches = concatenation().map({ [$0] }) else { return nil }
        while peek == "|" {
            at += 1
            guard let branch = concatenation() else { return nil }
            branches.append(branch)
        }
        if branches.count == 1 { return branches[0] }
        var out = LiteralInfo.unknown
        if branches.allSatisfy({ $0.exact != nil }) {
            let union = branches.reduce(into: LiteralSet()) { $0.formUnion($1.exact!) }
            if union.count <= Self.maximumStrings {
                out.exact = union
                return out
            }
        }
        // Each branch's strongest set; one branch without any leaves the whole without. When
        // their union is too large, each branch's smallest set (`key` rather than the 24 ways
        // `(?:api|auth|...)_?key` can be spelled).
        for pick in [{ Self.strongest($0, keep: 1).first }, Self.smallest] as [([LiteralSet]) -> LiteralSet?] {
            var union = LiteralSet()
            for branch in branches {
                guard let best = pick(Self.candidates(branch)) else { return out }
                union.formUnion(best)
            }
            if union.count <= Self.maximumStrings {
                out.required = [union]
                return out
            }
        }
        return out
    }

    /// `sets` without those another one implies (`pass` beside `pass|password`): they would
    /// only cost a search. (Kept while reading: a small implied set is what an alternation of
    /// many spellings falls back on.)
    static func withoutImplied(_ sets: [LiteralSet]) -> [LiteralSet] {
        var unique: [LiteralSet] = []
        for set in sets where !set.isEmpty && !unique.contains(set) { unique.append(set) }
        var kept: [LiteralSet] = []
        for set in unique {
            // Implied by a stronger set, or equivalent to one kept already (`pass` and `pass|password`).
            if unique.contains(where: { $0 != set && implies($0, set) && !implies(set, $0) }) { continue }
            if kept.contains(where: { implies($0, set) }) { continue }
            kept.append(set)
        }
        return kept
    }

    /// Whether a text holding one string of `a` always holds one of `b`: each string of `a`
    /// contains one of `b`.
    private static func implies(_ a: LiteralSet, _ b: LiteralSet) -> Bool {
        // The strings are lowercased already: the prefilter's own search compares them as they are.
        a.allSatisfy { string in string.withUnsafeBufferPointer { text in b.contains { RegexLiterals.occurs($0, in: text) } } }
    }

    /// The set with the fewest strings (then the longest shortest string).
    private static func smallest(_ sets: [LiteralSet]) -> LiteralSet? {
        sets.filter { !$0.isEmpty }.min { a, b in
            if a.count != b.count { return a.count < b.count }
            return a.shortestLength > b.shortestLength
        }
    }

    private mutating func concatenation() -> LiteralInfo? {
        var required: [LiteralSet] = []
        var run: LiteralSet = [[]]
        var whole: LiteralSet? = [[]]
        // The strings of the mandatory exact items since the last optional or unknown one: they
        // occur together in every match even when `run` (which spans optional items) is too
        // large to be of use (`(?:api|auth|...)_?key` still requires `key`).
        var segment: LiteralSet? = [[]]
        func closeSegment() {
            if let done = segment, !done.contains([]) { required.append(done) }
            segment = [[]]
        }
        while let c = peek, c != "|", c != ")" {
            guard var item = atom() else { return nil }
            guard let quantified = quantifier(&item) else { return nil }
            item = quantified
            required += item.required
            if let exact = item.exact {
                if let product = Self.product(run, exact) {
                    run = product
                } else {
                    if !run.contains([]) { required.append(run) }
                    run = exact
                }
                whole = whole.flatMap { Self.product($0, exact) }
                if exact.contains([]) {
                    closeSegment()
                } else if let current = segment, let product = Self.product(current, exact) {
                    segment = product
                } else {
                    closeSegment()
                    segment = exact
                }
            } else {
                if !run.contains([]) { required.append(run) }
                run = [[]]
                whole = nil
                closeSegment()
            }
        }
        closeSegment()
        if !run.contains([]) { required.append(run) }
        return LiteralInfo(exact: whole, required: Self.strongest(required.filter { !$0.contains([]) }, keep: 3))
    }

    /// Every concatenation of a string of `a` with one of `b`; nil when too many or too long.
    private static func product(_ a: LiteralSet, _ b: LiteralSet) -> LiteralSet? {
        guard a.count * b.count <= maximumStrings else { return nil }
        var out: [[UInt8]] = []
        out.reserveCapacity(a.count * b.count)
        for x in a {
            for y in b {
                guard x.count + y.count <= maximumLength else { return nil }
                out.append(x + y)
            }
        }
        return LiteralSet(out)
    }

    private static func candidates(_ info: LiteralInfo) -> [LiteralSet] {
        var out = info.required
        if let exact = info.exact, !exact.contains([]) { out.append(exact) }
        return out
    }

    /// The most selective sets: longest shortest string, then fewest strings.
    static func strongest(_ sets: [LiteralSet], keep: Int) -> [LiteralSet] {
        var unique: [LiteralSet] = []
        for set in sets where !set.isEmpty && !unique.contains(set) { unique.append(set) }
        // Each set's key once, not per comparison; a set's strings are already in order.
        let ranked = unique.map { (set: $0, shortest: $0.shortestLength) }
        return ranked.sorted { a, b in
            if a.shortest != b.shortest { return a.shortest > b.shortest }
            if a.set.count != b.set.count { return a.set.count < b.set.count }
            return a.set.precedes(b.set)
        }.prefix(keep).map(\.set)
    }

    // MARK: Atoms

    private mutating func atom() -> LiteralInfo? {
        guard let c = next() else { return nil }
        switch c {
        case "(": return group()
        case "[": return characterClass()
        case ".": return .unknown
        case "^", "$": return .empty
        case "\\": return escape()
        case "*", "+", "?", "{", ")", "|": return nil
        default:
            // A run of plain characters is one exact string: read one at a time, each multiplied
            // every set of the concatenation again (a tenth of a small scan's CPU, issue 77). The
            // last one before a quantifier stays an atom of its own, which the quantifier takes.
            var bytes = Self.lowered(c)
            while let d = peek, Self.isPlain(d), at + 1 >= scalars.count || !Self.isQuantifier(scalars[at + 1]) {
                let more = Self.lowered(d)
                guard bytes.count + more.count <= Self.maximumLength else { break }
                bytes += more
                at += 1
            }
            return LiteralInfo(exact: [bytes])
        }
    }

    /// A character that stands for itself outside a class (what `atom` reads as a literal).
    private static func isPlain(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "(", "[", ".", "^", "$", "\\", "*", "+", "?", "{", ")", "|": false
        default: true
        }
    }

    private static func isQuantifier(_ c: Unicode.Scalar) -> Bool { c == "*" || c == "+" || c == "?" || c == "{" }

    private static func lowered(_ c: Unicode.Scalar) -> [UInt8] {
        if c.isASCII { return [RegexLiterals.lower(UInt8(c.value))] }
        return Array(UTF8.encode(c)!)
    }

    private mutating func group() -> LiteralInfo? {
        guard peek == "?" else { return closeGroup(alternation()) }
        at += 1
        guard let kind = next() else { return nil }
        switch kind {
        case ":", ">":
            return closeGroup(alternation())
        case "#":
            while let c = next() { if c == ")" { return .empty } }
            return nil
        case "=":
            guard let inner = closeGroup(alternation()) else { return nil }
            return LiteralInfo(exact: [[]], required: Self.candidates(inner))
        case "!":
            return closeGroup(alternation()).map { _ in .empty }
        case "<":
            if peek == "=" || peek == "!" {
                at += 1
                return closeGroup(alternation()).map { _ in .empty }
            }
            guard skipName(until: ">") else { return nil }
            return closeGroup(alternation())
        case "P" where peek == "<":
            at += 1
            guard skipName(until: ">") else { return nil }
            return closeGroup(alternation())
        default:
            // Flags: `(?i)`, `(?is:...)`, `(?-i:...)`.
            at -= 1
            var on = true
            while let c = next() {
                switch c {
                case "-": on = false
                case "i": if on { caseInsensitive = true }
                case "s", "m", "w", "u", "U": break
                case ")": return .empty
                case ":": return closeGroup(alternation())
                default: return nil  // `x` (comments) and anything unknown
                }
            }
            return nil
        }
    }

    private mutating func closeGroup(_ inner: LiteralInfo?) -> LiteralInfo? {
        guard let inner, next() == ")" else { return nil }
        return inner
    }

    private mutating func skipName(until end: Unicode.Scalar) -> Bool {
        while let c = next() {
            if c == end { return true }
            guard c.properties.isAlphabetic || c == "_" || ("0"..."9").contains(c) else { return false }
        }
        return false
    }

    /// `[...]`: its members when they are few, simple characters and ranges.
    private mutating func characterClass() -> LiteralInfo? {
        var negated = false
        if peek == "^" {
            negated = true
            at += 1
        }
        // `[:alpha:]`, `[:^digit:]`: ICU reads a POSIX class here, not the characters `:alph`.
        if peek == ":" { return nil }
        var members = LiteralSet()
        var known = !negated
        var previous: Unicode.Scalar?
        var first = true
        while let c = next() {
            switch c {
            case "]" where !first:
                if members.count > 16 { known = false }
                return known ? LiteralInfo(exact: members) : .unknown
            case "[", "]":
                return nil  // nested sets, POSIX classes, a leading `]`: not read here
            case "&" where peek == "&":
                return nil
            case "$":
                // A variable in ICU's set syntax in some positions: not counted as a member.
                known = false
                previous = nil
            case "-" where previous != nil && peek != "]":
                guard let low = previous, var high = next(), high != "[" else { return nil }
                if high == "\\" {
                    guard let escaped = classEscape() else { return nil }
                    guard let scalar = escaped else {
                        known = false
                        previous = nil
                        continue
                    }
                    high = scalar
                }
                guard low.value <= high.value else { return nil }
                if high.value - low.value > 64 {
                    known = false
                } else if known {
                    for v in low.value...high.value { if let s = Unicode.Scalar(v) { members.insert(Self.lowered(s)) } }
                }
                previous = nil
            case "\\":
                guard let escaped = classEscape() else { return nil }
                if let scalar = escaped {
                    members.insert(Self.lowered(scalar))
                    previous = scalar
                } else {
                    known = false
                    previous = nil
                }
            default:
                members.insert(Self.lowered(c))
                previous = c
            }
            first = false
        }
        return nil
    }

    /// An escape inside a class: `.some(scalar)` for one character, `.some(nil)` for a class
    /// shorthand (`\s`, `\w`), nil for what is not read here.
    private mutating func classEscape() -> Unicode.Scalar?? {
        guard let c = peek else { return nil }
        switch c {
        case "d", "D", "w", "W", "s", "S", "h", "H", "v", "V":
            at += 1
            return .some(nil)
        case "p", "P", "N", "Q", "E", "k", "b", "B", "A", "z", "Z", "G", "X", "R":
            return nil
        default:
            return escapedCharacter().map { .some($0) }
        }
    }

    /// A single-character escape (`\n`, `\x41`, `\u202A`, `\.`), after the backslash.
    private mutating func escapedCharacter() -> Unicode.Scalar? {
        guard let c = next() else { return nil }
        switch c {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "a": return "\u{07}"
        case "e": return "\u{1B}"
        case "x":
            if peek == "{" {
                at += 1
                var digits = ""
                while let d = next(), d != "}" { digits.unicodeScalars.append(d) }
                return UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init)
            }
            return hex(2)
        case "u": return hex(4)
        case "U": return hex(8)
        case "0":
            var digits = ""
            while digits.count < 3, let d = peek, ("0"..."7").contains(d) {
                digits.unicodeScalars.append(d)
                at += 1
            }
            return Unicode.Scalar(UInt32(digits, radix: 8) ?? 0)
        default:
            // Any other escaped letter or digit is a class, an assertion or a reference.
            if c.properties.isAlphabetic || ("1"..."9").contains(c) { return nil }
            return c
        }
    }

    private mutating func hex(_ count: Int) -> Unicode.Scalar? {
        var digits = ""
        for _ in 0..<count {
            guard let d = next() else { return nil }
            digits.unicodeScalars.append(d)
        }
        return UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init)
    }

    private mutating func escape() -> LiteralInfo? {
        guard let c = peek else { return nil }
        switch c {
        case "b", "B", "A", "z", "Z", "G":
            at += 1
            return .empty
        case "d", "D", "w", "W", "s", "S", "h", "H", "v", "V", "R", "X":
            at += 1
            return .unknown
        case "p", "P", "N":
            // A property class or a named character: some character, not read here.
            at += 1
            if peek == "{" {
                while let c = next(), c != "}" {}
            } else {
                at += 1
            }
            return at <= scalars.count ? .unknown : nil
        case "k":
            // A named back reference: text matched elsewhere.
            at += 1
            guard next() == "<", skipName(until: ">") else { return nil }
            return .unknown
        case "1"..."9":
            while let d = peek, ("0"..."9").contains(d) { at += 1 }
            return .unknown
        case "Q":
            at += 1
            var text: [UInt8] = []
            while let c = next() {
                if c == "\\", peek == "E" {
                    at += 1
                    return LiteralInfo(exact: [text])
                }
                text += Self.lowered(c)
            }
            return LiteralInfo(exact: [text])
        default:
            return escapedCharacter().map { LiteralInfo(exact: [Self.lowered($0)]) }
        }
    }

    // MARK: Quantifiers

    /// Applies a quantifier following the atom, if any; nil for a malformed one.
    private mutating func quantifier(_ item: inout LiteralInfo) -> LiteralInfo? {
        guard let c = peek else { return item }
        var minimum: Int
        var maximum: Int?
        switch c {
        case "*": (minimum, maximum) = (0, nil)
        case "+": (minimum, maximum) = (1, nil)
        case "?": (minimum, maximum) = (0, 1)
        case "{":
            let start = at
            at += 1
            var low = ""
            while let d = peek, ("0"..."9").contains(d) {
                low.unicodeScalars.append(d)
                at += 1
            }
            guard let lowValue = Int(low) else {
                at = start
                return nil
            }
            minimum = lowValue
            maximum = lowValue
            if peek == "," {
                at += 1
                var high = ""
                while let d = peek, ("0"..."9").contains(d) {
                    high.unicodeScalars.append(d)
                    at += 1
                }
                maximum = high.isEmpty ? nil : Int(high)
            }
            guard next() == "}" else { return nil }
            at -= 1
        default:
            return item
        }
        at += 1
        // Lazy and possessive forms match the same texts.
        if peek == "?" || peek == "+" { at += 1 }
        if minimum == 0 {
            if maximum == 1, let exact = item.exact { return LiteralInfo(exact: exact.union([[]])) }
            return LiteralInfo.unknown
        }
        var out = LiteralInfo(exact: nil, required: Self.candidates(item))
        if minimum == maximum, var power = item.exact {
            for _ in 1..<minimum {
                guard let next = Self.product(power, item.exact!) else { return out }
                power = next
            }
            out.exact = power
        }
        return out
    }
}

extension RegexLiterals {
    /// Writes the requirement (``RulePack``): `caseInsensitive`, then each entry's strings.
    func pack(into writer: inout PackedWriter) {
        writer.byte(caseInsensitive ? 1 : 0)
        writer.int(required.count)
        for entry in required {
            writer.int(entry.count)
            for string in entry { writer.run(string) }
        }
    }

    /// Reads a requirement ``pack(into:)`` wrote.
    /// - Throws: ``PackedReader/Damaged`` for bytes it did not write.
    init(packed reader: inout PackedReader) throws(PackedReader.Damaged) {
        let flag = try reader.byte()
        guard flag < 2 else { throw PackedReader.Damaged() }
        let count = try reader.int()
        guard count <= reader.end - reader.position else { throw PackedReader.Damaged() }
        var required: [[[UInt8]]] = []
        for _ in 0..<count {
            let strings = try reader.int()
            guard strings <= reader.end - reader.position else { throw PackedReader.Damaged() }
            var entry: [[UInt8]] = []
            for _ in 0..<strings { entry.append(Array(reader.bytes[try reader.run()])) }
            required.append(entry)
        }
        self.init(required: required, caseInsensitive: flag == 1)
    }
}
