/// One parameter of an API operation, with an example value to send.
public struct APIParameter: Sendable, Hashable {
    /// Where the parameter travels.
    public enum Location: String, Sendable, Hashable, CaseIterable {
        case query, path, header, cookie
    }

    /// The parameter's name.
    public var name: String
    /// Where it travels.
    public var location: Location
    /// Whether the operation requires it (path parameters always are).
    public var required: Bool
    /// A value to send: the parameter's `example`, its first `examples` entry, its schema's
    /// example, default or first enum value, else one of the schema's type and format.
    public var example: String
    /// The schema's type (`string`, `integer`, ...), when known.
    public var type: String?
    /// The line where the parameter is defined.
    public var line: Int

    /// A parameter.
    public init(
        name: String, location: Location, required: Bool = false, example: String = "sentinel", type: String? = nil,
        line: Int = 0
    ) {
        self.name = name
        self.location = location
        self.required = required || location == .path
        self.example = example
        self.type = type
        self.line = line
    }
}
