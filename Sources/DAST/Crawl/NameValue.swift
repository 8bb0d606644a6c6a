/// One `name=value` pair of a query string, form body or cookie header.
public struct NameValue: Sendable, Hashable, Codable {
    /// The decoded name.
    public var name: String
    /// The decoded value.
    public var value: String
    /// The value as the page gave it, still encoded (a link's query), when it came so: sent back
    /// byte for byte while unchanged. Decoding alone would turn `+` into a space for a server
    /// that decodes only `%XX`, and bytes that are not UTF-8 (a serialised object) into U+FFFD.
    public var raw: String?

    /// A pair.
    public init(_ name: String, _ value: String, raw: String? = nil) {
        self.name = name
        self.value = value
        self.raw = raw
    }
}
