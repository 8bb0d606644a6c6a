import Web

/// A URL found in a page, resolved against the page's base URL.
public struct HTMLLink: Sendable, Hashable {
    /// Whether following the link loads a document or a subresource.
    public enum Kind: String, Sendable, Hashable {
        /// A document a user could reach: `a`, `area`, frames, forms, meta refresh, URLs in scripts.
        case navigation
        /// A subresource the page loads: scripts, images, stylesheets, media.
        case resource
    }

    /// The resolved URL, without fragment.
    public let url: WebURL
    /// Navigation or resource.
    public let kind: Kind
    /// Where it was found, e.g. `a[href]`, `meta[refresh]`, `script text`.
    public let source: String

    /// A link of `kind` found at `source`.
    public init(url: WebURL, kind: Kind, source: String) {
        self.url = url
        self.kind = kind
        self.source = source
    }
}
