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
        for token in file.tokens(from: file.offset(ofLine: line), to: file.offset(afterLineHolding: file.offset(ofLine: line))) {
            guard let (quote, body) = file.plainString(token), body.contains(where: \.isLetter) else { continue }
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
