import Support

/// Text from outside (a model's reply, a test's failure message, a log line) written into a
/// pull request's Markdown as inert text: GitHub renders it as written, and nothing in it
/// mentions anyone (`@team`), closes or links an issue, loads an image (a beacon), links out, or
/// becomes HTML.
enum MarkdownText {
    /// `text` as a fenced block of plain text: a fence longer than any backtick run in it, so
    /// nothing inside ends the block; inside, Markdown, HTML, mentions and links are not read.
    static func block(_ text: String) -> String {
        let fence = MarkdownFence.fence(for: text)
        return fence + "text\n" + text + (text.hasSuffix("\n") ? "" : "\n") + fence + "\n"
    }

    /// `text` on one line with every character Markdown or GitHub reads (emphasis, links,
    /// images, HTML, tables, headings, mentions, issue references, autolinks) escaped.
    static func inline(_ text: String) -> String {
        // Support's escaping: the redactor knows a secret's escaped form too (`EncodedForms`).
        EncodedForms.markdownEscaped(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
