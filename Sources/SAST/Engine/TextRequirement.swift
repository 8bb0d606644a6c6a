import Glibc
import PythonSyntax

extension PatternFormula {
    /// Literal text a file must contain for the formula to match in it, from its
    /// `metavariable-regex` clauses: the text such a clause tests is code of the file, so the
    /// literals its expression requires are in the file too. Nil when the formula requires none.
    ///
    /// Only metavariables that every pattern binds to code (`$X` as an expression, `"$S"`) count:
    /// an identifier binding may be an import-resolved spelling the file does not contain.
    var textRequirement: RegexLiterals? {
        switch self {
        case .pattern:
            return nil
        case .either(let alternatives):
            var parts: [RegexLiterals] = []
            for alternative in alternatives {
                guard let part = alternative.textRequirement else { return nil }
                parts.append(part)
            }
            return RegexLiterals(anyOf: parts)
        case .all(let clauses):
            var parts: [RegexLiterals] = []
            for clause in clauses {
                switch clause {
                case .positive(let formula), .inside(let formula):
                    if let part = formula.textRequirement { parts.append(part) }
                case .metavariableRegex(let name, let regex) where bindsCode(name):
                    parts.append(regex.literals)
                default:
                    break
                }
            }
            return parts.isEmpty ? nil : RegexLiterals(allOf: parts)
        }
    }

    /// Whether the metavariable occurs in the formula's patterns and only where it binds code.
    private func bindsCode(_ name: String) -> Bool {
        var seen = false
        var onlyCode = true
        forEachBindingPattern { tree in
            tree.walk { node in
                guard node.text == name else { return true }
                seen = true
                if node.kind != .name && node.kind != .string { onlyCode = false }
                return true
            }
        }
        return seen && onlyCode
    }

    /// Every pattern that can bind metavariables (not those of `pattern-not`).
    private func forEachBindingPattern(_ body: (SyntaxNode) -> Void) {
        switch self {
        case .pattern(let pattern):
            body(pattern.tree)
        case .either(let alternatives):
            for alternative in alternatives { alternative.forEachBindingPattern(body) }
        case .all(let clauses):
            for clause in clauses {
                switch clause {
                case .positive(let formula), .inside(let formula), .metavariableValue(_, let formula):
                    formula.forEachBindingPattern(body)
                default:
                    break
                }
            }
        }
    }
}

/// A file's bytes with ASCII letters lowercased, for ``RegexLiterals`` tests over the whole file.
/// Every rule with a text requirement asks its own literals of every file: the pairs of adjacent
/// bytes the file holds (a 64 Ki-bit set, made in the lowering pass) reject most absent literals
/// without reading the text, and only the others are searched for.
struct LowercasedText: Sendable {
    let bytes: [UInt8]
    let isASCII: Bool
    /// Bit `a << 8 | b` is set when the byte pair `a b` occurs.
    private let pairs: [UInt64]

    init(_ source: [UInt8]) {
        // One pass into uninitialised storage (no per-byte append): this runs on every file
        // that a rule with a text requirement might match.
        var high: UInt8 = 0
        var pairs = [UInt64](repeating: 0, count: 1024)
        bytes = [UInt8](unsafeUninitializedCapacity: source.count) { buffer, count in
            source.withUnsafeBufferPointer { input in
                pairs.withUnsafeMutableBufferPointer { pairs in
                    var previous: Int?
                    for i in input.indices {
                        high |= input[i]
                        let lower = RegexLiterals.lower(input[i])
                        buffer[i] = lower
                        if let previous {
                            let pair = previous << 8 | Int(lower)
                            pairs[pair >> 6] |= 1 << UInt64(pair & 63)
                        }
                        previous = Int(lower)
                    }
                }
            }
            count = source.count
        }
        isASCII = high < 0x80
        self.pairs = pairs
    }

    /// Whether the text may satisfy `requirement` (false: it certainly does not).
    func mayContain(_ requirement: RegexLiterals) -> Bool {
        if requirement.caseInsensitive && !isASCII { return true }
        return bytes.withUnsafeBytes { haystack in
            requirement.required.allSatisfy { alternatives in
                alternatives.contains { needle in needle.withUnsafeBytes { hasPairs(of: $0) && Self.find($0, in: haystack) } }
            }
        }
    }

    /// Whether every pair of adjacent bytes of `needle` occurs in the text.
    private func hasPairs(of needle: UnsafeRawBufferPointer) -> Bool {
        guard needle.count > 1 else { return true }
        for i in 1..<needle.count {
            let pair = Int(needle[i - 1]) << 8 | Int(needle[i])
            if pairs[pair >> 6] & (1 << UInt64(pair & 63)) == 0 { return false }
        }
        return true
    }

    /// Whether `needle` occurs in `haystack`: memchr to each candidate first byte, then memcmp.
    private static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first, let base = haystack.baseAddress, let pattern = needle.baseAddress else {
            return needle.isEmpty
        }
        var offset = 0
        let limit = haystack.count - needle.count
        while offset <= limit {
            guard let hit = memchr(base + offset, Int32(first), limit - offset + 1) else { return false }
            let at = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + at, pattern, needle.count) == 0 { return true }
            offset = at + 1
        }
        return false
    }
}
