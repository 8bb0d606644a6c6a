/// A Markdown code fence for a text: longer than any run of backticks inside it (and at least
/// three), so nothing in the text closes the block early.
public enum MarkdownFence {
    /// The fence for `text`.
    public static func fence(for text: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return String(repeating: "`", count: max(3, longest + 1))
    }
}
