import Foundation

/// Any JSON value, decoded without a fixed schema, so that tool output with missing, extra or
/// oddly typed fields is read field by field instead of rejected whole.
public enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes whatever JSON value is there.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Decodes `data` as one JSON document. Throws a one-line description of what is wrong
    /// (truncated, not JSON) as a `String`-carrying `JSONValue.ParseError`.
    public static func parse(_ data: Data) throws(ParseError) -> JSONValue {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw ParseError(description: "no JSON output")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = context.underlyingError.map { ": \(String(describing: $0))" } ?? ""
            throw ParseError(description: "unreadable JSON output (\(data.count) bytes)\(underlying)")
        } catch {
            throw ParseError(description: "unreadable JSON output (\(data.count) bytes): \(error)")
        }
    }

    /// Why a document could not be decoded, in one line.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The member `key` of an object; `nil` for other values or a missing key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The text of a string value.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// Whole numbers (and numeric strings such as `"78"`).
    public var int: Int? {
        switch self {
        case .number(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
        case .string(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// The elements of an array value.
    public var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The members of an object value.
    public var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A string, or the strings of an array (tools write `"cwe": "CWE-78"` and `["CWE-78"]`).
    public var strings: [String] {
        switch self {
        case .string(let value): [value]
        case .array(let values): values.compactMap(\.string)
        default: []
        }
    }
}
