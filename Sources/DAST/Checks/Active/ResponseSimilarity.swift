import Foundation

/// How alike two answers are, for boolean-based checks: the bodies are cut into chunks at
/// newlines and tags, the injected values are removed first (a page that echoes the input
/// differs for that reason only), and the share of common chunks is compared.
enum ResponseSimilarity {
    /// 1 for the same status and chunks, 0 for nothing in common.
    static func ratio(_ a: WebResponse, _ b: WebResponse, removing injected: [String] = []) -> Double {
        guard a.status == b.status else { return 0 }
        let left = chunks(a.text, removing: injected)
        let right = chunks(b.text, removing: injected)
        if left.isEmpty && right.isEmpty { return 1 }
        var counts: [Substring: Int] = [:]
        for chunk in left { counts[chunk, default: 0] += 1 }
        var common = 0
        for chunk in right {
            if let count = counts[chunk], count > 0 {
                counts[chunk] = count - 1
                common += 1
            }
        }
        return Double(2 * common) / Double(left.count + right.count)
    }

    /// How alike `answer` (to the point's request with `value`) is to `baseline` (with
    /// `original`). Where the answer shows `value`, both are removed first: a page that echoes its
    /// input differs by that alone. Where it does not, the original stays in the baseline: the
    /// value no longer showing is a difference (a command whose output vanished).
    static func ratio(_ answer: WebResponse, _ baseline: WebResponse, value: String, original: String) -> Double {
        let shown = HTMLEscaping.forms(of: value).contains { answer.text.contains($0) }
        return ratio(answer, baseline, removing: shown ? [value, original] : [value])
    }

    private static func chunks(_ text: String, removing injected: [String]) -> [Substring] {
        var cleaned = text
        for value in injected.sorted(by: { $0.count > $1.count }) where value.count >= 2 {
            for form in HTMLEscaping.forms(of: value) { cleaned = cleaned.replacingOccurrences(of: form, with: "") }
        }
        return cleaned.split(whereSeparator: { $0 == "\n" || $0 == "<" }).prefix(20_000).map {
            $0.drop { $0 == " " || $0 == "\t" }
        }
    }
}
