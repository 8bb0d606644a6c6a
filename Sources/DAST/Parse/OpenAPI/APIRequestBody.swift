import Web

/// The request body of an API operation: the media type chosen and an example body in it.
public struct APIRequestBody: Sendable, Hashable {
    /// The media type chosen: JSON first, then form-urlencoded, multipart, XML, plain text,
    /// else the first one listed.
    public var mediaType: String
    /// Whether the body is required.
    public var required: Bool
    /// The example as a value tree (a string for XML and plain-text bodies given as text).
    public var body: JSONBody
    /// The body as sent: JSON text, `a=1&b=2` for form-urlencoded, the example text for XML and
    /// plain text. Empty for `multipart/form-data`, whose parts the sender builds from `formFields`.
    public var text: String

    /// A body in `mediaType`.
    public init(mediaType: String, required: Bool, body: JSONBody, text: String) {
        self.mediaType = mediaType
        self.required = required
        self.body = body
        self.text = text
    }

    /// The fields an injection can target: JSON paths (`a`, `a.b`, `a[0]`) of the body's scalars.
    public var fieldPaths: [String] { body.fieldPaths }

    /// For form bodies: the top-level members as `name=value` pairs (nested values as JSON text).
    public var formFields: [FormPair] { body.formPairs }

    /// Whether the media type is JSON (`application/json` or a `+json` type).
    public var isJSON: Bool { OpenAPIMediaTypes.isJSON(mediaType) }
}
