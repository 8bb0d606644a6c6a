import Documents

/// A JSON document built in code, printed with sorted keys so output is byte-for-byte stable.
/// Used for SARIF, whose shape is far from our model; avoids Foundation's `Any` trees.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Pretty-printed (two-space indent) with keys in code-point order and a final newline, by
    /// the one JSON writer (`Documents.JSONWriter`).
    func rendered() -> String {
        String(decoding: JSONWriter.bytes(node, style: .pretty, sortKeys: true) + [UInt8(ascii: "\n")], as: UTF8.self)
    }

    /// The same value as a document node (built in code: no positions).
    private var node: DocumentNode {
        let value: DocumentNode.Value
        switch self {
        case .null: value = .null
        case .bool(let flag): value = .bool(flag)
        case .int(let number): value = .integer(number)
        case .double(let number): value = .double(number)
        case .string(let text): value = .string(text)
        case .array(let items): value = .array(items.map(\.node))
        case .object(let members):
            value = .object(members.map { DocumentMember(key: $0.key, line: 0, column: 0, value: $0.value.node) })
        }
        return DocumentNode(value, line: 0, column: 0)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// Sets `key` only when `value` is present, so optional fields are omitted rather than null.
    mutating func set(_ key: String, _ value: String?) {
        if let value { self[key] = .string(value) }
    }

    mutating func set(_ key: String, _ value: Int?) {
        if let value { self[key] = .int(value) }
    }
}
