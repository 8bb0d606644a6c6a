/// One piece of a Jinja2 or Django template: literal text, an output `{{ ... }}`, a tag
/// `{% ... %}` or a template comment `{# ... #}`.
public struct TemplateToken: Sendable, Hashable {
    /// What the piece is.
    public enum Kind: Sendable, Hashable {
        /// Literal text (HTML), including the body of `{% raw %}` / `{% verbatim %}`.
        case text
        /// `{{ expression }}`.
        case output
        /// `{% name arguments %}`.
        case tag
        /// `{# ... #}` or Django's `{% comment %}...{% endcomment %}`.
        case comment
    }

    /// What the piece is.
    public var kind: Kind
    /// Byte offsets of the whole piece, delimiters included.
    public var range: Range<Int>
    /// Byte offsets of its content: the expression, the tag's name and arguments, the comment's
    /// text, without delimiters and whitespace-control marks (`-`, `+`); the text itself for text.
    public var inner: Range<Int>
}
