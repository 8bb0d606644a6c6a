/// What the tokenizer and the document builder know about particular elements.
enum HTMLElements {
    /// How the content of `name` is tokenized: raw text (no tags, no entities), RCDATA (no
    /// tags, entities), or nil for ordinary markup. `plaintext` swallows the rest of the input.
    static func contentKind(of name: String, scripting: Bool) -> HTMLToken.Kind? {
        switch name {
        case "script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext": return .rawText
        case "noscript": return scripting ? .rawText : nil
        case "textarea", "title": return .rcdata
        default: return nil
        }
    }

    /// Attributes holding a URL: where a reflected value's start matters (`javascript:`).
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "data", "poster", "xlink:href", "background", "cite",
    ]
}
