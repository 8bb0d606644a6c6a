import Web

/// One piece of an HTML document as the tokenizer reads it. Offsets are into the UTF-8 bytes
/// of the source, and consecutive tokens tile it: every byte belongs to exactly one token, so
/// a position (a reflected marker) can always be placed.
struct HTMLToken: Sendable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        /// Character data between tags (entities not yet decoded).
        case text
        /// `<!-- -->`, and the bogus comments browsers make of `<?..>`, `<!x>` and `</ x>`.
        case comment
        /// `<!DOCTYPE ...>`.
        case doctype
        /// `<name attributes>`.
        case startTag
        /// `</name>`.
        case endTag
        /// The content of `<script>`, `<style>` and other raw-text elements: no tags, no entities.
        case rawText
        /// The content of `<textarea>` and `<title>`: no tags, but entities.
        case rcdata
    }

    /// What the token is.
    var kind: Kind
    /// The bytes the token covers, delimiters included.
    var range: Range<Int>
    /// The lowercased tag name; for raw text and RCDATA, the element they belong to.
    var name = ""
    /// Where the tag name is written (tags only).
    var nameRange: Range<Int> = 0..<0
    /// The attributes in order, at most the tokenizer's limit; a repeated name keeps all copies
    /// (lookups take the first, as browsers do).
    var attributes: [HTMLAttribute] = []
    /// False for a tag cut off by the end of input (browsers drop it).
    var terminated = true
    /// The inside of a comment, text, raw text or RCDATA token.
    var contentRange: Range<Int> = 0..<0
}

/// One attribute of a tag: where its name and value are written.
struct HTMLAttribute: Sendable {
    /// The lowercased name.
    var name: String
    /// Where the name is written.
    var nameRange: Range<Int>
    /// Where the value is written, without quotes; nil for a valueless attribute.
    var valueRange: Range<Int>?
    /// The quote around the value (`"` or `'`), nil when unquoted or valueless.
    var quote: UInt8?
}

extension HTMLToken {
    /// The first attribute called `name` (lowercase), decoded; nil when absent, empty when valueless.
    func attribute(_ name: String, in bytes: [UInt8]) -> String? {
        guard let attribute = attributes.first(where: { $0.name == name }) else { return nil }
        guard let range = attribute.valueRange else { return "" }
        return HTMLEntities.decode(bytes[range], inAttribute: true)
    }

    /// Whether the tag has an attribute called `name` (lowercase).
    func hasAttribute(_ name: String) -> Bool { attributes.contains { $0.name == name } }
}
