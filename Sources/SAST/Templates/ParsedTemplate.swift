import TemplateSyntax

/// A template read once for a project scan: its document, scanned later, and its outline, read
/// first so that every template's context is known before any is scanned.
public struct ParsedTemplate: Sendable {
    /// The template's tokens, outputs, tags and elements.
    let document: TemplateDocument
    /// What it hands the templates it references.
    public let outline: TemplateOutline

    /// Reads the template `bytes`.
    public init(bytes: [UInt8]) {
        document = TemplateDocument(bytes: bytes)
        outline = TemplateOutline(document)
    }
}
