import Support

/// Text from outside (a model's reply, a test's failure message, a log line) written into a
/// pull request's Markdown as inert text: GitHub renders it as written, and nothing in it
/// mentions anyone (`@team`), closes or links an issue, loads an image (a beacon), links out, or
/// becomes HTML.
public enum MarkdownText {
    /// `text` as a fenced block of plain text: a fence longer than any backtick run in it, so
    /// nothing inside ends the block; inside, Markdown, HTML, mentions and links are not read.
    public static func block(_ text: String) -> String {
        let fence = MarkdownFence.fence(for: text)
        return fence + "text\n" + text + (text.hasSuffix("\n") ? "" : "\n") + fence + "\n"
    }

    /// `text` on one line with every character Markdown or GitHub reads (emphasis, links,
    /// images, HTML, tables, headings, mentions, issue references, autolinks) escaped.
    public static func inline(_ text: String) -> String {
        // Support's escaping: the redactor knows a secret's escaped form too (`EncodedForms`).
        EncodedForms.markdownEscaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// `text` as an inline code span: delimited by a backtick run longer than any inside it
    /// (padded with a space where it starts or ends with one), on one line. Nothing in a code
    /// span is read as Markdown, HTML, a mention or a link. `inTable`: `|` escaped, since a
    /// table cell ends at a bare one even inside a code span.
    public static func code(_ text: String, inTable: Bool = false) -> String {
        var line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        if inTable { line = line.replacingOccurrences(of: "|", with: "\\|") }
        var longest = 0
        var run = 0
        for character in line {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = line.hasPrefix("`") || line.hasSuffix("`") || line.isEmpty ? " " : ""
        return fence + pad + line + pad + fence
    }

    /// A version or an id as it is when it holds only ASCII letters, digits and `.-_+:~` (nothing
    /// Markdown or GitHub reads in running text there), else ``inline(_:)``.
    public static func word(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { wordScalars.contains($0) }
        return plain ? text : inline(text)
    }

    private static let wordScalars = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_+:~".unicodeScalars)
}
