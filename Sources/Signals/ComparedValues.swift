import Foundation

/// What a failing test compared: the value it expected and the one it got, read from the test
/// run's output. Repairs of programs judged by their output use it to aim (a literal printed as
/// `Drow` where `Draw` was expected, a debug line the expected output lacks).
public struct ComparedValues: Sendable, Hashable {
    /// The value the test wanted, as printed.
    public var expected: String
    /// The value the code produced, as printed.
    public var actual: String

    /// A comparison of `actual` against `expected`.
    public init(expected: String, actual: String) {
        self.expected = expected
        self.actual = actual
    }

    /// Most comparisons read from one output: the first failing cases say enough.
    public static let maximumCount = 20
    /// Most characters kept of one value; longer ones are cut (a value this long is data, and
    /// token matching on a prefix of it still aims).
    public static let maximumLength = 20_000

    /// Every comparison in `output`, in order, at most ``maximumCount``. Three shapes are read:
    /// - blocks under headers, as judges and snapshot tests print them: a line `--- expected
    ///   output ---`, `Expected:` or `expected output:` and the lines after it, then a line
    ///   `--- actual output ---`, `Actual:`, `got:` or `received:` and the lines after it, up to the
    ///   next header or pytest section rule; a value on the header's own line (`Expected: 3`) counts;
    /// - pytest's rewritten assertion, `E   assert 'Drow' == 'Draw'` (left is what the code
    ///   gave, right what the test wanted, as `assert result == expected` is written);
    /// - unittest's `AssertionError: 'Drow' != 'Draw'` (first, second) the same way.
    public static func parse(_ output: String) -> [ComparedValues] {
        var out: [ComparedValues] = []
        var expected: [Substring]?
        var actual: [Substring]?
        var current: Side?
        func close() {
            if let expected, let actual {
                out.append(ComparedValues(expected: clipped(expected), actual: clipped(actual)))
            }
            expected = nil
            actual = nil
            current = nil
        }
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if out.count >= maximumCount { break }
            let text = line.hasSuffix("\r") ? line.dropLast() : line
            if let (side, inline) = header(text) {
                if side == .expected, expected != nil { close() }
                if side == .actual, actual != nil { close() }
                let first = inline.map { [$0] } ?? []
                if side == .expected { expected = first } else { actual = first }
                // A value on the header's own line is the whole value.
                current = inline == nil ? side : nil
                if inline != nil, expected != nil, actual != nil { close() }
                continue
            }
            if current != nil, isRule(text) {
                if expected != nil, actual != nil { close() } else { current = nil }
            } else if current == .expected {
                expected?.append(text)
            } else if current == .actual {
                actual?.append(text)
            } else if let pair = assertion(text) {
                out.append(pair)
            }
        }
        if out.count < maximumCount { close() }
        return out
    }

    /// Which side a header starts.
    private enum Side { case expected, actual }

    private static let expectedWords: Set<String> = ["expected", "expect", "wanted", "want"]
    private static let actualWords: Set<String> = ["actual", "got", "received", "obtained", "output", "result"]
    private static let nouns: Set<String> = ["output", "result", "value", "stdout", "answer"]

    /// A header line: its side, and the value on its own line after a colon, if any.
    private static func header(_ line: Substring) -> (Side, Substring?)? {
        var text = line.trimmingCharacters(in: .whitespaces)[...]
        var inline: Substring?
        if let colon = text.firstIndex(of: ":") {
            let rest = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            inline = rest.isEmpty ? nil : rest[...]
            text = text[..<colon]
        }
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
        guard let first = words.first, words.count <= 3, words.dropFirst().allSatisfy(nouns.contains) else { return nil }
        // A bare word is a header only when marked as one (`--- got ---`, `Expected:`).
        let marked =
            line.contains(":") || line.trimmingCharacters(in: .whitespaces).hasPrefix("-")
            || line.trimmingCharacters(in: .whitespaces).hasPrefix("=")
        guard marked || words.count > 1 else { return nil }
        if expectedWords.contains(first) { return (.expected, inline) }
        if actualWords.contains(first), first != "output" || words.count == 1 { return (.actual, inline) }
        return nil
    }

    /// A pytest section rule (`____ test_x ____`, `==== short test summary ====`) ends a block.
    private static func isRule(_ line: Substring) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        // Another block's header (`--- input ---`, `--- stderr ---`) ends one too.
        let otherBlock = trimmed.count > 6 && trimmed.hasPrefix("---") && trimmed.hasSuffix("---")
        return otherBlock || trimmed.hasPrefix("____") || trimmed.hasPrefix("====") || trimmed.hasPrefix("FAILED ")
    }

    /// `assert A == B` (pytest) or `AssertionError: A != B` (unittest) with literal operands.
    private static func assertion(_ line: Substring) -> ComparedValues? {
        var text = line.trimmingCharacters(in: .whitespaces)[...]
        if text.hasPrefix("E ") { text = text.dropFirst(2).drop(while: { $0 == " " }) }
        let separator: String
        if let range = text.range(of: "AssertionError: ") {
            text = text[range.upperBound...]
            if text.hasPrefix("assert ") { text = text.dropFirst(7) }
            separator = text.contains(" != ") ? " != " : " == "
        } else if text.hasPrefix("assert ") {
            text = text.dropFirst(7)
            separator = " == "
        } else {
            return nil
        }
        guard let range = text.range(of: separator) else { return nil }
        guard let left = literal(text[..<range.lowerBound]), let right = literal(text[range.upperBound...]) else { return nil }
        return ComparedValues(expected: right, actual: left)
    }

    /// A Python string or number literal as its value (simple escapes only); nil for anything else.
    static func literal(_ text: Substring) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let quote = trimmed.first, quote == "'" || quote == "\"", trimmed.count >= 2, trimmed.last == quote {
            var out = ""
            var escaped = false
            for character in trimmed.dropFirst().dropLast() {
                if escaped {
                    switch character {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    default: out.append(character)
                    }
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    out.append(character)
                }
            }
            return out
        }
        let number = trimmed.drop { $0 == "-" }
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        return trimmed
    }

    private static func clipped(_ lines: [Substring]) -> String {
        var lines = lines
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        let text = lines.joined(separator: "\n")
        return text.count > maximumLength ? String(text.prefix(maximumLength)) : text
    }
}
