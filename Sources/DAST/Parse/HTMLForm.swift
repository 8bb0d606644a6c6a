import Web

/// An HTML form: where it submits, how, and its controls in document order (controls inside
/// the element and those elsewhere naming it with `form="id"`).
public struct HTMLForm: Sendable, Hashable {
    /// The resolved `action`; the page's URL when absent or empty.
    public var action: WebURL
    /// `GET` or `POST`; anything else (including `dialog`) is `GET`, as browsers submit it.
    public var method: String
    /// `application/x-www-form-urlencoded` (the default and the fallback), `multipart/form-data`
    /// or `text/plain`.
    public var enctype: String
    /// The controls in document order.
    public var fields: [FormField]
    /// The `id` attribute.
    public var id: String?
    /// The `name` attribute.
    public var name: String?
    /// The page the form is on: URL fields are filled with its origin so a submission never
    /// makes the target contact another host.
    public var page: WebURL

    /// A form; `method` and `enctype` are normalised as browsers read them.
    public init(
        action: WebURL, method: String = "GET", enctype: String = HTMLForm.urlEncoded, fields: [FormField] = [],
        id: String? = nil, name: String? = nil, page: WebURL
    ) {
        self.action = action
        self.method = method.uppercased() == "POST" ? "POST" : "GET"
        let type = enctype.lowercased()
        self.enctype = [HTMLForm.multipart, HTMLForm.plainText].contains(type) ? type : HTMLForm.urlEncoded
        self.fields = fields
        self.id = id
        self.name = name
        self.page = page
    }

    /// `application/x-www-form-urlencoded`.
    public static let urlEncoded = "application/x-www-form-urlencoded"
    /// `multipart/form-data`.
    public static let multipart = "multipart/form-data"
    /// `text/plain`.
    public static let plainText = "text/plain"
}
