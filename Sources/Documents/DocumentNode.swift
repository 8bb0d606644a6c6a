/// A value read from a JSON, TOML or YAML document, with the 1-based line and column where it
/// starts: findings and error messages point at lines, and no library reader keeps them.
public struct DocumentNode: Sendable, Hashable {
    /// What the node holds. Objects keep their members in document order.
    public enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        case integer(Int)
        case double(Double)
        case string(String)
        case array([DocumentNode])
        case object([DocumentMember])
    }

    /// The value itself.
    public let value: Value
    /// The 1-based line where the value starts.
    public let line: Int
    /// The 1-based column (in bytes) where the value starts.
    public let column: Int

    /// Makes a node; `line` and `column` are 1-based.
    public init(_ value: Value, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    /// The value of member `key` of an object, nil otherwise. JSON objects hold each key once
    /// (the last value, as Python and Node read it); elsewhere the first of a repeated key.
    public subscript(key: String) -> DocumentNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The member `key` of an object with its own position, nil otherwise.
    public func member(_ key: String) -> DocumentMember? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }
    }

    /// The members of an object; empty for anything else.
    public var members: [DocumentMember] {
        if case .object(let members) = value { return members }
        return []
    }

    /// The elements of an array; empty for anything else.
    public var elements: [DocumentNode] {
        if case .array(let elements) = value { return elements }
        return []
    }

    /// The text of a string, nil for anything else.
    public var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// A boolean, nil for anything else.
    public var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// Strings, numbers and booleans as text, for fields written either way
    /// (`lockfileVersion: 3` or `"3"`).
    public var scalarText: String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }

    /// Whether the node is an object.
    public var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    /// Whether the node is an array.
    public var isArray: Bool {
        if case .array = value { return true }
        return false
    }
}

/// One `key: value` pair of an object; `line` and `column` are where the key is written.
public struct DocumentMember: Sendable, Hashable {
    /// The key as written (after unescaping).
    public let key: String
    /// The 1-based line of the key.
    public let line: Int
    /// The 1-based column of the key.
    public let column: Int
    /// The value.
    public var value: DocumentNode

    /// Makes a member; `line` and `column` are those of the key.
    public init(key: String, line: Int, column: Int, value: DocumentNode) {
        self.key = key
        self.line = line
        self.column = column
        self.value = value
    }
}

extension DocumentNode {
    /// An object made in code, not read from a file (every position 1:1), with `members` in the given order.
    public static func object(_ members: [(String, Value)]) -> DocumentNode {
        DocumentNode(
            .object(members.map { DocumentMember(key: $0.0, line: 1, column: 1, value: DocumentNode($0.1, line: 1, column: 1)) }),
            line: 1, column: 1)
    }
}
