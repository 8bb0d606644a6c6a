/// Writes a `DocumentNode` as JSON text. Keys may be sorted (String order) so that output is
/// byte-for-byte stable whatever order the document was built or read in.
public enum JSONWriter {
    /// The layout of the text.
    public enum Style: Sendable {
        /// No whitespace at all (database rows, one-line records).
        case compact
        /// Two-space indent, `": "` after keys, `[]`/`{}` for empty containers (reports).
        case pretty
    }

    /// The JSON text of `node` as UTF-8 bytes, without a final newline.
    public static func bytes(_ node: DocumentNode, style: Style = .compact, sortKeys: Bool = true) -> [UInt8] {
        var writer = Writer(style: style, sortKeys: sortKeys)
        writer.write(node.value, indent: 0)
        return writer.out
    }

    /// The JSON text of `node`, without a final newline.
    public static func string(_ node: DocumentNode, style: Style = .compact, sortKeys: Bool = true) -> String {
        String(decoding: bytes(node, style: style, sortKeys: sortKeys), as: UTF8.self)
    }

    private struct Writer {
        let style: Style
        let sortKeys: Bool
        var out: [UInt8] = []

        mutating func write(_ value: DocumentNode.Value, indent: Int) {
            switch value {
            case .null: out.append(contentsOf: "null".utf8)
            case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
            case .integer(let number): out.append(contentsOf: String(number).utf8)
            case .double(let number):
                // JSON has no NaN or infinity; a number that is not finite is unknown.
                out.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
            case .string(let text): JSONWriter.writeString(text, into: &out)
            case .array(let items):
                container(open: "[", close: "]", count: items.count, indent: indent) { writer, index in
                    writer.write(items[index].value, indent: indent + 1)
                }
            case .object(let members):
                let ordered = sortKeys ? members.sorted { $0.key < $1.key } : members
                container(open: "{", close: "}", count: ordered.count, indent: indent) { writer, index in
                    JSONWriter.writeString(ordered[index].key, into: &writer.out)
                    writer.out.append(UInt8(ascii: ":"))
                    if writer.style == .pretty { writer.out.append(UInt8(ascii: " ")) }
                    writer.write(ordered[index].value.value, indent: indent + 1)
                }
            }
        }

        mutating func container(
            open: Unicode.Scalar, close: Unicode.Scalar, count: Int, indent: Int,
            element: (inout Writer, Int) -> Void
        ) {
            out.append(UInt8(ascii: open))
            guard count > 0 else {
                out.append(UInt8(ascii: close))
                return
            }
            for index in 0..<count {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                element(&self, index)
            }
            newline(indent)
            out.append(UInt8(ascii: close))
        }

        mutating func newline(_ indent: Int) {
            guard style == .pretty else { return }
            out.append(UInt8(ascii: "\n"))
            out += [UInt8](repeating: UInt8(ascii: " "), count: indent * 2)
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters (and DEL) escaped,
    /// everything else copied as UTF-8.
    public static func writeString(_ value: String, into out: inout [UInt8]) {
        func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? digit + 0x30 : digit - 10 + 0x61 }
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20, 0x7f:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex(byte >> 4))
                out.append(hex(byte & 0x0f))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
