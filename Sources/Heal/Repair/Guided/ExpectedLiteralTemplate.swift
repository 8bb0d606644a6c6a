import PythonSyntax

/// A string literal whose word was printed where the expected output has a near spelling of it:
/// `print("Drow")` → `print("Draw")` when `Draw` was expected and `Drow` never was, `"YES"` →
/// `"Yes"`. A word is near when it differs only in case, or by one edit (two for words of more than
/// six letters); closer spellings are tried first (``RepairEdit/rank``). Plain literals only (no
/// prefix, escapes or triple quotes), and only words with a letter: a number printed wrong is
/// arithmetic, not spelling.
public struct ExpectedLiteralTemplate: GuidedRepairTemplate {
    /// `expected-literal`.
    public let name = "expected-literal"
    /// See ``RepairTemplates/guided``.
    public let prior: Double

    /// The template with `prior`.
    public init(prior: Double = 0.95) { self.prior = prior }

    /// Near spellings for the printed words of plain literals on `lines`.
    public func candidates(in file: RepairFile, difference: OutputDifference, lines: Set<Int>) -> [RepairEdit] {
        guard !difference.missing.isEmpty, !difference.extra.isEmpty else { return [] }
        var out: [RepairEdit] = []
        for token in file.tokens where lines.contains(token.range.start.line) {
            guard let (quote, body) = file.plainString(token) else { continue }
            let words = OutputDifference.tokens(body)
            for word in Set(words) where difference.extra.contains(word) && word.contains(where: \.isLetter) {
                let near = difference.missing.compactMap { wanted -> (String, Int)? in
                    guard !wanted.contains(quote), !wanted.contains("\\"), let distance = Self.distance(word, wanted)
                    else { return nil }
                    return (wanted, distance)
                }.sorted { $0.1 < $1.1 }
                for (rank, (wanted, _)) in near.prefix(3).enumerated() {
                    let replaced = Self.replacingWord(word, with: wanted, in: body)
                    var edit = file.replacing(
                        token.range.start.offset, token.range.end.offset, with: "\(quote)\(replaced)\(quote)",
                        line: token.range.start.line)
                    edit.rank = rank
                    out.append(edit)
                }
            }
        }
        return out
    }

    /// 0 for a case slip, else the edit distance when it is small enough to be a slip; nil otherwise.
    static func distance(_ a: String, _ b: String) -> Int? {
        if a.lowercased() == b.lowercased() { return 0 }
        let limit = max(a.count, b.count) > 6 ? 2 : 1
        guard abs(a.count - b.count) <= limit, b.contains(where: \.isLetter) else { return nil }
        let x = Array(a)
        let y = Array(b)
        var previous = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var row = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(1, y.count) where !y.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = row
        }
        let distance = previous[y.count]
        return distance <= limit ? distance : nil
    }

    /// `body` with each whitespace-separated occurrence of `word` replaced by `wanted`.
    static func replacingWord(_ word: String, with wanted: String, in body: String) -> String {
        var out = ""
        var current = ""
        func flush() {
            out += current == word ? wanted : current
            current = ""
        }
        for character in body {
            if character == " " || character == "\t" || character == "\n" {
                flush()
                out.append(character)
            } else {
                current.append(character)
            }
        }
        flush()
        return out
    }
}
