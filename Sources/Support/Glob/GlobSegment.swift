/// One compiled segment of a ``Glob``: `**` (any number of path segments, none included), or a
/// name pattern matched against exactly one segment.
enum GlobSegment: Sendable, Hashable {
    case anyDepth
    case name([GlobToken])
}

/// One piece of a name pattern. Characters are code units: UTF-8 bytes or Unicode scalars, as
/// the glob's dialect reads paths.
enum GlobToken: Sendable, Hashable {
    case literal(UInt32)
    case anyOne
    case anyRun
    case set(ranges: [ClosedRange<UInt32>], negated: Bool)

    /// How a dialect reads a name pattern: `\` escapes, and whether a malformed class throws
    /// (else an unclosed `[` is a literal `[` and a reversed range matches nothing).
    struct Syntax {
        var escapes: Bool
        var strict: Bool
        /// Builds the error for a malformed pattern (used when `strict`).
        var fail: (String) -> SentinelError
    }

    /// The tokens of one segment's code units.
    static func tokens(_ units: [UInt32], _ syntax: Syntax) throws -> [GlobToken] {
        var tokens: [GlobToken] = []
        var index = 0
        while index < units.count {
            let unit = units[index]
            index += 1
            switch unit {
            case Self.star:
                // `a**b` is `a*b`, as in .gitignore.
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            case Self.question:
                tokens.append(.anyOne)
            case Self.backslash where syntax.escapes:
                guard index < units.count else { throw syntax.fail("trailing '\\' escapes nothing") }
                tokens.append(.literal(units[index]))
                index += 1
            case Self.open:
                if let (token, next) = try set(units, from: index, syntax) {
                    tokens.append(token)
                    index = next
                } else {
                    tokens.append(.literal(unit))
                }
            default:
                tokens.append(.literal(unit))
            }
        }
        return tokens
    }

    /// The class whose body starts at `start` (just after `[`) and the index after its `]`;
    /// nil when no `]` closes it (a lenient dialect then reads `[` literally).
    private static func set(_ units: [UInt32], from start: Int, _ syntax: Syntax) throws -> (GlobToken, Int)? {
        var index = start
        var negated = false
        if index < units.count, units[index] == Self.bang || units[index] == Self.caret {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while index < units.count {
            var low = units[index]
            // A `]` right after `[` or `[!` is a member, as in fnmatch.
            if low == Self.close, !first { return (.set(ranges: ranges, negated: negated), index + 1) }
            first = false
            index += 1
            if syntax.escapes, low == Self.backslash, index < units.count {
                low = units[index]
                index += 1
            }
            var high = low
            if index + 1 < units.count, units[index] == Self.dash, units[index + 1] != Self.close {
                high = units[index + 1]
                index += 2
                if syntax.escapes, high == Self.backslash, index < units.count {
                    high = units[index]
                    index += 1
                }
                if low > high {
                    if syntax.strict { throw syntax.fail("range '\(Self.text(low))-\(Self.text(high))' is reversed") }
                    continue  // an empty range: it matches nothing
                }
            }
            ranges.append(low...high)
        }
        if syntax.strict { throw syntax.fail("unclosed '['") }
        return nil
    }

    /// Whether one path segment matches `tokens`: a linear scan that backtracks only to the
    /// last `*`, which is enough because `*` never crosses `/`.
    static func match<Text: RandomAccessCollection>(_ tokens: ArraySlice<GlobToken>, _ text: Text) -> Bool
    where Text.Element: FixedWidthInteger, Text.Index == Int {
        var token = tokens.startIndex
        var position = text.startIndex
        var star: (token: Int, position: Int)?
        while position < text.endIndex {
            if token < tokens.endIndex {
                switch tokens[token] {
                case .anyRun:
                    star = (token, position)
                    token += 1
                    continue
                case .anyOne:
                    token += 1
                    position += 1
                    continue
                case .literal(let unit) where unit == UInt32(truncatingIfNeeded: text[position]):
                    token += 1
                    position += 1
                    continue
                case .set(let ranges, let negated)
                where ranges.contains { $0.contains(UInt32(truncatingIfNeeded: text[position])) } != negated:
                    token += 1
                    position += 1
                    continue
                default:
                    break
                }
            }
            guard let last = star else { return false }
            star = (last.token, last.position + 1)
            token = last.token + 1
            position = last.position + 1
        }
        while token < tokens.endIndex, tokens[token] == .anyRun { token += 1 }
        return token == tokens.endIndex
    }

    /// Dynamic programming over (pattern segment, path segment): `reach[j]` says whether the
    /// segments seen so far can consume the first `j` path segments. Time is pattern × path.
    static func match<Unit: FixedWidthInteger>(_ pattern: [GlobSegment], _ path: [[Unit]]) -> Bool {
        var reach = [Bool](repeating: false, count: path.count + 1)
        reach[0] = true
        for segment in pattern {
            var next = [Bool](repeating: false, count: path.count + 1)
            switch segment {
            case .anyDepth:
                // Once reachable, every later split point is reachable too.
                var seen = false
                for index in 0...path.count {
                    seen = seen || reach[index]
                    next[index] = seen
                }
            case .name(let tokens):
                for index in 0..<path.count where reach[index] {
                    next[index + 1] = match(tokens[...], path[index][...])
                }
            }
            reach = next
            if !reach.contains(true) { return false }
        }
        return reach[path.count]
    }

    private static func text(_ unit: UInt32) -> String { Unicode.Scalar(unit).map { String($0) } ?? "\\u{\(unit)}" }

    private static let star = UInt32(UInt8(ascii: "*"))
    private static let question = UInt32(UInt8(ascii: "?"))
    private static let backslash = UInt32(UInt8(ascii: "\\"))
    private static let open = UInt32(UInt8(ascii: "["))
    private static let close = UInt32(UInt8(ascii: "]"))
    private static let bang = UInt32(UInt8(ascii: "!"))
    private static let caret = UInt32(UInt8(ascii: "^"))
    private static let dash = UInt32(UInt8(ascii: "-"))
}
