/// Where a reflected value sits in an HTML response: what a payload must do to break out of
/// it. The XSS check injects a marker, reads its contexts, picks a payload per context, then
/// asks `executableReflections` whether the payload landed somewhere a browser runs it.
public enum ReflectionContext: Sendable, Hashable {
    /// Element content (a new tag can start here).
    case text
    /// An attribute value; `quote` is `"` or `'`, nil when unquoted.
    case attributeValue(name: String, quote: Character?)
    /// The value of a URL attribute (`href`, `src`, `action`, `formaction`, ...): at its start, a
    /// `javascript:` URL runs (see `ReflectionOccurrence.atValueStart`).
    case urlAttribute(name: String, quote: Character?)
    /// Inside a tag, outside any value: a new attribute can start here.
    case attributeName
    /// Inside a tag's name.
    case tagName
    /// A comment, doctype or other markup declaration.
    case comment
    /// A `<script>` block: `quote` is the string delimiter around the value (`'`, `"`, `` ` ``,
    /// or `/` for a regular expression literal), nil in code.
    case script(quote: Character?)
    /// A `//` or `/* */` comment inside a `<script>` block.
    case scriptComment
    /// A `<style>` block.
    case style
    /// Text that is never markup: `<textarea>`, `<title>` (RCDATA) and the raw text of
    /// `<noscript>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`, `<plaintext>`.
    case rcdata(element: String)

    /// The context of every occurrence of `marker` in `html`, in order (at most `limit`).
    public static func contexts(of marker: String, in html: String, limit: Int = 1_000) -> [ReflectionContext] {
        occurrences(of: marker, in: html, limit: limit).map(\.context)
    }

    /// Every occurrence of `marker` in `html` with its context and position, in order (at most
    /// `limit`). Tags are read as a browser running scripts reads them.
    public static func occurrences(of marker: String, in html: String, limit: Int = 1_000) -> [ReflectionOccurrence] {
        ReflectionScanner.occurrences(of: Array(marker.utf8), in: Array(html.utf8), limit: limit)
    }
}

/// One place a marker was reflected.
public struct ReflectionOccurrence: Sendable, Hashable {
    /// Where it sits.
    public let context: ReflectionContext
    /// Its byte offset in the UTF-8 response.
    public let offset: Int
    /// For attribute values: whether only whitespace precedes it in the value (a URL attribute
    /// starting with the marker can be turned into `javascript:`).
    public let atValueStart: Bool

    /// An occurrence at `offset`.
    public init(context: ReflectionContext, offset: Int, atValueStart: Bool = false) {
        self.context = context
        self.offset = offset
        self.atValueStart = atValueStart
    }
}
