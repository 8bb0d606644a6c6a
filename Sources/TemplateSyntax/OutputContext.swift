/// Where in the HTML a template output lands, which decides what escaping protects it.
public enum OutputContext: String, Sendable, Hashable, CaseIterable {
    /// Element content (also `<textarea>` and `<title>`, which hold text).
    case text
    /// A quoted attribute value.
    case attribute
    /// An unquoted attribute value: a space in the value starts a new attribute, so even escaped
    /// output can add an event handler.
    case unquotedAttribute = "unquoted-attribute"
    /// The start of a URL attribute's value (`href`, `src`, `action`, ...): escaping does not stop
    /// `javascript:`. An output after a constant prefix (`href="/user/{{ id }}"`) is `attribute`.
    case urlAttribute = "url-attribute"
    /// Event-handler attribute (`onclick`): JavaScript, run after the browser decodes the HTML
    /// entities escaping produced.
    case eventAttribute = "event-attribute"
    /// JavaScript code in `<script>`, outside string literals: escaping does not protect.
    case script
    /// A JavaScript string literal in `<script>` (quotes, or a template literal).
    case scriptString = "script-string"
    /// Inside `<style>` or a `style` attribute.
    case style
    /// Inside an HTML comment.
    case comment
    /// Inside a tag, where attribute names go (`<div {{ attrs }}>`).
    case tag
}
