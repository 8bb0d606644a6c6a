import Web

/// What the crawler needs from an HTML page: its title, links and forms. Parsing never fails
/// and never crashes: the page comes from the server under test and may be anything. Output is
/// bounded (`maxLinks`, `maxForms`, 10 000 form controls) and time is linear in the input.
public struct HTMLDocument: Sendable, Hashable {
    /// The page's own URL.
    public var url: WebURL
    /// The URL relative links resolve against: the first `<base href>`, else `url`.
    public var baseURL: WebURL
    /// The first `<title>`, entity-decoded, whitespace collapsed.
    public var title: String?
    /// Distinct links (by URL and kind) in document order.
    public var links: [HTMLLink]
    /// Forms in document order (forms whose action is not HTTP, such as `javascript:`, are left out).
    public var forms: [HTMLForm]

    /// The default cap on links.
    public static let defaultMaxLinks = 10_000
    /// The default cap on forms.
    public static let defaultMaxForms = 1_000

    /// Parses `html`, the body of `url`.
    public static func parse(
        _ html: String, url: WebURL, maxLinks: Int = defaultMaxLinks, maxForms: Int = defaultMaxForms
    ) -> HTMLDocument {
        var builder = HTMLDocumentBuilder(bytes: Array(html.utf8), page: url, maxLinks: maxLinks, maxForms: maxForms)
        return builder.build()
    }

    /// The URLs of navigation links (documents the crawler visits).
    public var navigationLinks: [WebURL] { links.filter { $0.kind == .navigation }.map(\.url) }

    /// The URLs of resource links (scripts, images, stylesheets).
    public var resourceLinks: [WebURL] { links.filter { $0.kind == .resource }.map(\.url) }
}
