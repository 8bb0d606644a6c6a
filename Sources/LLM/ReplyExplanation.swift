import Foundation

/// The model's own words in a reply: what is left once the edit blocks, the paths before them,
/// fences and diff lines are set aside. A pull request quotes it, marked as the model's, beside
/// the evidence Sentinel gathered itself.
public enum ReplyExplanation {
    /// Most characters kept.
    public static let maximumLength = 600

    /// The explanation in `reply`, or nil when the reply is only edits.
    public static func text(of reply: String) -> String? {
        let lines = reply.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        var kept: [String] = []
        var inBlock = false
        var inFence = false
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if SearchReplaceBlock.isMarker(trimmed, "<", "SEARCH") {
                inBlock = true
                // The line before a block is its path, not prose.
                if let last = kept.last, index > 0, last == lines[index - 1].trimmingCharacters(in: .whitespaces) {
                    kept.removeLast()
                }
                continue
            }
            if SearchReplaceBlock.isMarker(trimmed, ">", "REPLACE") {
                inBlock = false
                continue
            }
            let diffLine = ["--- ", "+++ ", "@@", "+", "-"].contains { trimmed.hasPrefix($0) }
            guard !inBlock, !inFence, !diffLine, !trimmed.isEmpty else { continue }
            kept.append(trimmed)
        }
        // A path alone on a line before a fenced block is not prose either.
        let prose = kept.filter { !($0.contains("/") || $0.hasSuffix(".py")) || $0.contains(" ") }
        guard !prose.isEmpty else { return nil }
        let text = prose.joined(separator: " ")
        return text.count > maximumLength ? String(text.prefix(maximumLength - 1)) + "…" : text
    }
}
