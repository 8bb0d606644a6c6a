import PythonSyntax

/// Changes the letter case of a string literal: `"YES"` → `"Yes"`, `'no'` → `'No'`. Output judged
/// word for word fails on case alone.
public struct StringCaseTemplate: RepairTemplate {
    /// `string-case`.
    public let name = "string-case"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// A template with `prior`.
    public init(prior: Double = 0.4) { self.prior = prior }

    /// For each plain string literal starting on `line` with letters: its capitalised, upper- and
    /// lower-case forms (the ones that differ), capitalised first.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for token in file.tokens(from: file.offset(ofLine: line), to: file.offset(afterLineHolding: file.offset(ofLine: line)))
        where token.kind == .string {
            let text = token.text
            // A plain literal: quotes at both ends, no prefix (f-strings and bytes are left alone).
            guard let quote = text.first, quote == "\"" || quote == "'", text.count >= 3, text.last == quote,
                !text.hasPrefix("\"\"\""), !text.hasPrefix("'''")
            else { continue }
            let body = String(text.dropFirst().dropLast())
            guard body.contains(where: \.isLetter), !body.contains("\\") else { continue }
            let capitalised = body.prefix(1).uppercased() + body.dropFirst().lowercased()
            var seen: Set<String> = [body]
            for (rank, variant) in [capitalised, body.uppercased(), body.lowercased()].enumerated()
            where seen.insert(variant).inserted {
                var edit = file.replacing(
                    token.range.start.offset, token.range.end.offset, with: "\(quote)\(variant)\(quote)", line: line)
                edit.rank = rank
                out.append(edit)
            }
        }
        return out
    }
}
