/// Well-known credential shapes the redactor replaces even when no variable names them: GitHub
/// tokens (`ghp_` and kin, `github_pat_`), Slack tokens (`xoxb-` and kin), AWS access key ids
/// (`AKIA`, `ASIA`). One pass, linear in the input: a prefix is matched at a word start and its
/// body read once; a match is skipped whole.
public struct TokenShape: Sendable, Hashable {
    /// Which bytes may follow the prefix.
    public enum Body: Sendable, Hashable {
        /// `[A-Za-z0-9]`
        case alphanumeric
        /// `[A-Za-z0-9_]`
        case word
        /// `[A-Za-z0-9-]`
        case dashed
        /// `[A-Z0-9]`
        case upperAlphanumeric
    }

    /// The literal prefixes.
    public let prefixes: [String]
    /// The body's characters.
    public let body: Body
    /// The fewest body bytes that make a token.
    public let minimum: Int
    /// The most body bytes (a longer run is not this shape); nil: the whole run, however long.
    public let maximum: Int?

    /// The shapes replaced.
    public static let known: [TokenShape] = [
        TokenShape(prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], body: .alphanumeric, minimum: 36, maximum: nil),
        TokenShape(prefixes: ["github_pat_"], body: .word, minimum: 22, maximum: nil),
        TokenShape(prefixes: ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"], body: .dashed, minimum: 10, maximum: nil),
        TokenShape(prefixes: ["AKIA", "ASIA"], body: .upperAlphanumeric, minimum: 16, maximum: 16),
    ]

    /// The byte ranges of every known token in `bytes`, in order, not overlapping.
    public static func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            if startsPrefix[Int(bytes[index])], index == 0 || !isWordByte(bytes[index - 1]),
                let end = match(at: index, in: bytes)
            {
                found.append(index..<end)
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    /// Whether a byte starts some prefix (`g`, `x`, `A`): one table look-up rules out almost
    /// every position of a report before any prefix is compared.
    private static let startsPrefix: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for shape in known { for prefix in shape.prefixes { table[Int(prefix.utf8.first ?? 0)] = true } }
        return table
    }()

    private static func match(at start: Int, in bytes: [UInt8]) -> Int? {
        for shape in known {
            for prefix in shape.prefixes where hasPrefix(prefix, at: start, in: bytes) {
                var end = start + prefix.utf8.count
                // A bounded shape reads one byte past its maximum; an open one reads its whole run,
                // which a match then skips (a miss is shorter than `minimum`): linear either way.
                let limit = shape.maximum.map { min(bytes.count, end + $0 + 1) } ?? bytes.count
                while end < limit, shape.accepts(bytes[end]) { end += 1 }
                let length = end - start - prefix.utf8.count
                if length >= shape.minimum, length <= shape.maximum ?? Int.max { return end }
            }
        }
        return nil
    }

    private static func hasPrefix(_ prefix: String, at start: Int, in bytes: [UInt8]) -> Bool {
        let utf8 = prefix.utf8
        guard start + utf8.count <= bytes.count else { return false }
        var index = start
        for byte in utf8 {
            guard bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private func accepts(_ byte: UInt8) -> Bool {
        let upper = (0x41...0x5A).contains(byte)
        let digit = (0x30...0x39).contains(byte)
        let lower = (0x61...0x7A).contains(byte)
        switch body {
        case .alphanumeric: return upper || digit || lower
        case .word: return upper || digit || lower || byte == 0x5F
        case .dashed: return upper || digit || lower || byte == 0x2D
        case .upperAlphanumeric: return upper || digit
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }
}
