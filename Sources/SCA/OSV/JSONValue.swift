import Foundation
import Yams

/// A JSON-shaped tree that both JSON and YAML advisories decode into. YAML scalars stay text, so
/// unquoted timestamps (`modified: 2023-11-07T20:24:23Z`) and numbers (`introduced: 0`) reach the
/// model exactly as written instead of as dates or integers.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object, nil otherwise.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// Text of a string or number scalar.
    public var text: String? {
        switch self {
        case .string(let s), .number(let s): return s
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }

    /// The elements of an array; empty for anything else.
    public var elements: [JSONValue] {
        if case .array(let items) = self { return items }
        return []
    }

    /// Parses JSON text.
    public static func parseJSON(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Parses YAML text (the first document), keeping every scalar as text.
    public static func parseYAML(_ text: String) throws -> JSONValue {
        guard let node = try Yams.compose(yaml: text) else { return .null }
        return JSONValue(yaml: node)
    }

    init(yaml node: Node) {
        switch node {
        case .scalar(let scalar):
            // Only an unquoted null spelling is null; everything else stays as written.
            if scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
                self = .null
            } else if scalar.style == .plain, ["true", "false"].contains(scalar.string) {
                self = .bool(scalar.string == "true")
            } else {
                self = .string(scalar.string)
            }
        case .sequence(let seq): self = .array(seq.map(JSONValue.init(yaml:)))
        case .mapping(let map):
            var members = [String: JSONValue]()
            for (key, value) in map { members[key.string ?? ""] = JSONValue(yaml: value) }
            self = .object(members)
        case .alias: self = .null
        }
    }

    /// Compact JSON text with sorted keys, for storing a YAML record in the database.
    public var jsonText: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONValue.quote(key, into: &out)
                out += ":"
                members[key]?.write(into: &out)
            }
            out += "}"
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue: Decodable {
    public init(from decoder: Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var items = [JSONValue]()
            while !list.isAtEnd { items.append(try list.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var members = [String: JSONValue]()
            for key in keyed.allKeys { members[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let b = try? single.decode(Bool.self) { self = .bool(b) }
        else if let s = try? single.decode(String.self) { self = .string(s) }
        else if let i = try? single.decode(Int64.self) { self = .number(String(i)) }
        else { self = .number(String(try single.decode(Double.self))) }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
