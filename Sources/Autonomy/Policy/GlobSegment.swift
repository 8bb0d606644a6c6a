import Support

/// One compiled segment of a `PathGlob`: `**`, or a name pattern of tokens.
enum GlobSegment: Sendable, Hashable {
    case anyDepth
    case name([Token])

    /// One piece of a name pattern.
    enum Token: Sendable, Hashable {
        case literal(Unicode.Scalar)
        case anyOne
        case anyRun
        case set(ranges: [ClosedRange<UInt32>], negated: Bool)
    }

    /// Tokens of one segment; `fail` builds the error for a malformed one.
    static func tokens(_ text: Substring, fail: (String) -> SentinelError) throws -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "*":
                // `a**b` is `a*b`, as in .gitignore.
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            case "?":
                tokens.append(.anyOne)
            case "\\":
                guard index < scalars.count else { throw fail("trailing '\\' escapes nothing") }
                tokens.append(.literal(scalars[index]))
                index += 1
            case "[":
                let (token, next) = try set(scalars, from: index, fail: fail)
                tokens.append(token)
                index = next
            default:
                tokens.append(.literal(scalar))
            }
        }
        return tokens
    }

    /// The class whose body starts at `start` (just after `[`), and the index after its `]`.
    private static func set(_ scalars: [Unicode.Scalar], from start: Int, fail: (String) -> SentinelError) throws -> (
        Token, Int
    ) {
        var index = start
        var negated = false
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while index < scalars.count {
            var low = scalars[index]
            // A `]` right after `[` or `[!` is a member, as in fnmatch.
            if low == "]", !first { return (.set(ranges: ranges, negated: negated), index + 1) }
            first = false
            index += 1
            if low == "\\", index < scalars.count {
                low = scalars[index]
                index += 1
            }
            var high = low
            if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                high = scalars[index + 1]
                index += 2
                if high == "\\", index < scalars.count {
                    high = scalars[index]
                    index += 1
                }
                guard low.value <= high.value else { throw fail("range '\(low)-\(high)' is reversed") }
            }
            ranges.append(low.value...high.value)
        }
        throw fail("unclosed '['")
    }

    /// Whether one path segment matches `tokens`: a linear scan that backtracks only to the
    /// last `*`, which is enough because `*` never crosses `/`.
    static func match(_ tokens: ArraySlice<Token>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
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
                case .literal(let scalar) where scalar == text[position]:
                    token += 1
                    position += 1
                    continue
                case .set(let ranges, let negated) where ranges.contains { $0.contains(text[position].value) } != negated:
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
}
