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

    /// Pretty-printed (two-space indent) with keys in code-point order and a final newline.
    func rendered() -> String {
        var out: [UInt8] = []
        write(into: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    private func write(into out: inout [UInt8], indent: Int) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .int(let value): out += Array(String(value).utf8)
        case .double(let value):
            // JSON has no NaN or infinity; a duration that is not finite is unknown.
            out += Array((value.isFinite ? String(value) : "null").utf8)
        case .string(let value): JSONValue.writeString(value, into: &out)
        case .array(let items):
            guard !items.isEmpty else {
                out += Array("[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                out += index == 0 ? [UInt8(ascii: "\n")] : Array(",\n".utf8)
                JSONValue.pad(&out, indent + 1)
                item.write(into: &out, indent: indent + 1)
            }
            out.append(UInt8(ascii: "\n"))
            JSONValue.pad(&out, indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                out += Array("{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                out += index == 0 ? [UInt8(ascii: "\n")] : Array(",\n".utf8)
                JSONValue.pad(&out, indent + 1)
                JSONValue.writeString(key, into: &out)
                out += Array(": ".utf8)
                members[key]?.write(into: &out, indent: indent + 1)
            }
            out.append(UInt8(ascii: "\n"))
            JSONValue.pad(&out, indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func pad(_ out: inout [UInt8], _ indent: Int) {
        out += [UInt8](repeating: UInt8(ascii: " "), count: indent * 2)
    }

    private static func writeString(_ value: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7f:
                out += Array("\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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
