import Foundation
import Signals

/// How a program's printed output differs from what its tests expected, over every comparison a
/// failing run showed (``ComparedValues``), as output judges compare: whitespace-separated tokens.
/// Output-guided templates (``GuidedRepairTemplate``) aim by it.
public struct OutputDifference: Sendable, Hashable {
    /// Tokens some expected output has and no actual output printed, in order of first appearance.
    public var missing: [String] = []
    /// Tokens printed that no expected output has.
    public var extra: Set<String> = []
    /// Lines printed (trimmed, non-empty) that no expected output has.
    public var extraLines: [String] = []
    /// Whether some comparison printed more tokens than it expected.
    public var printedMoreTokens = false
    /// Whether some comparison printed more (non-empty) lines than it expected.
    public var printedMoreLines = false
    /// Whether every comparison printed its expected tokens in a row, with more around them: the
    /// answer is there, something else was printed too.
    public var expectedWithin = false
    /// When every comparison printed one container (`['Yes', 'No']`, `(1, 2)`) whose items are the
    /// expected tokens: whether the expected output has one item per line.
    public var containerItems: Bool?
    /// When every comparison printed as many tokens as expected, every number differs by the same
    /// ±1 and there are at least two such numbers: that difference (expected minus actual).
    public var shift: Int?

    /// The difference over `compared`.
    public init(_ compared: [ComparedValues]) {
        var expectedTokens = Set<String>()
        var actualTokens = Set<String>()
        var expectedLines = Set<String>()
        var order: [String] = []
        var shifts = Set<Int>()
        var shiftedNumbers = 0
        var aligned = !compared.isEmpty
        expectedWithin = !compared.isEmpty
        for pair in compared {
            let expected = Self.tokens(pair.expected)
            let actual = Self.tokens(pair.actual)
            for token in expected where expectedTokens.insert(token).inserted { order.append(token) }
            actualTokens.formUnion(actual)
            expectedLines.formUnion(Self.lines(pair.expected))
            if actual.count > expected.count { printedMoreTokens = true }
            if Self.lines(pair.actual).count > Self.lines(pair.expected).count { printedMoreLines = true }
            if actual.count <= expected.count || !Self.contains(actual, expected) { expectedWithin = false }
            guard aligned, actual.count == expected.count else {
                aligned = false
                continue
            }
            for (want, got) in zip(expected, actual) where want != got {
                guard let a = Int(want), let b = Int(got) else {
                    aligned = false
                    break
                }
                shifts.insert(a - b)
                shiftedNumbers += 1
            }
        }
        missing = order.filter { !actualTokens.contains($0) }
        extra = actualTokens.subtracting(expectedTokens)
        var seen = Set<String>()
        for pair in compared {
            for line in Self.lines(pair.actual) where !expectedLines.contains(line) && seen.insert(line).inserted {
                extraLines.append(line)
            }
        }
        containerItems = Self.containerItems(compared)
        if aligned, shiftedNumbers >= 2, shifts.count == 1, let delta = shifts.first, abs(delta) == 1 { shift = delta }
    }

    /// Whether there is anything to aim at.
    public var isEmpty: Bool { missing.isEmpty && extra.isEmpty && extraLines.isEmpty && !printedMoreTokens }

    /// Whether every comparison printed a container of the expected tokens, and if so whether
    /// they were expected one per line; nil otherwise.
    static func containerItems(_ compared: [ComparedValues]) -> Bool? {
        guard !compared.isEmpty else { return nil }
        var perLine = true
        for pair in compared {
            let printed = pair.actual.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let open = printed.first, let close = printed.last, (open == "[" && close == "]") || (open == "(" && close == ")")
            else { return nil }
            let items = printed.dropFirst().dropLast().split(separator: ",").map { item in
                item.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            }
            let expected = tokens(pair.expected)
            guard !expected.isEmpty, items == expected else { return nil }
            if lines(pair.expected).count != expected.count { perLine = false }
        }
        return perLine
    }

    /// Whether `part` occurs in `whole` as a contiguous run.
    static func contains(_ whole: [String], _ part: [String]) -> Bool {
        guard !part.isEmpty, part.count <= whole.count else { return part.isEmpty }
        return (0...(whole.count - part.count)).contains { start in whole[start..<(start + part.count)].elementsEqual(part) }
    }

    /// The whitespace-separated tokens of `text`, as output judges compare.
    static func tokens(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
    }

    /// The non-empty lines of `text`, trimmed.
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}
