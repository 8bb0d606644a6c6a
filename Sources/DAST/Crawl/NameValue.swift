/// One `name=value` pair of a query string, form body or cookie header.
public struct NameValue: Sendable, Hashable, Codable {
    /// The decoded name.
    public var name: String
    /// The decoded value.
    public var value: String

    /// A pair.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
