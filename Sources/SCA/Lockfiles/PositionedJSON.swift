/// A JSON value that remembers the 1-based line where it starts, because findings point at
/// lockfile lines and Foundation's decoder forgets them.
struct JSONNode {
    enum Value {
        case object([JSONMember])
        case array([JSONNode])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    let value: Value
    let line: Int

    subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    var members: [JSONMember] {
        if case .object(let members) = value { return members }
        return []
    }

    var elements: [JSONNode] {
        if case .array(let elements) = value { return elements }
        return []
    }

    var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    /// Numbers and strings both, for fields such as `lockfileVersion` written either way.
    var scalarText: String? {
        switch value {
        case .string(let s), .number(let s): return s
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }

    var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }
}

/// One `"key": value` pair; `line` is where the key is written.
struct JSONMember {
    let key: String
    let line: Int
    let value: JSONNode
}

/// A strict RFC 8259 reader over bytes that records lines. Depth is bounded so hostile input
/// cannot exhaust the stack.
struct PositionedJSON {
    static let maxDepth = 256

    static func parse(_ bytes: [UInt8], file: String) throws -> JSONNode {
        let body = TextLines.droppingBOM(bytes)
        return try body.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, file: file)
            reader.skipSpace()
            guard reader.i < buffer.count else { throw malformed(file, reader.line, "empty JSON document") }
            let node = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.i == buffer.count else {
                throw malformed(file, reader.line, "unexpected text after the JSON document")
            }
            return node
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        var i = 0
        var line = 1

        init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
            self.bytes = bytes
            self.file = file
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x0A: line += 1
                case 0x20, 0x09, 0x0D: break
                default: return
                }
                i += 1
            }
        }

        func fail(_ what: String) -> Error { malformed(file, line, what) }

        mutating func value(depth: Int) throws -> JSONNode {
            guard depth < PositionedJSON.maxDepth else { throw fail("JSON nested too deeply") }
            guard i < bytes.count else { throw fail("unexpected end of JSON") }
            let start = line
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [JSONMember] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    return JSONNode(value: .object(members), line: start)
                }
                while true {
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of JSON in object") }
                    guard bytes[i] == UInt8(ascii: "\"") else {
                        throw fail("expected a string key in object")
                    }
                    let keyLine = line
                    let key = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                        throw fail("expected ':' after key \"\(key)\"")
                    }
                    i += 1
                    skipSpace()
                    let child = try value(depth: depth + 1)
                    members.append(JSONMember(key: key, line: keyLine, value: child))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of JSON in object") }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        break
                    }
                    throw fail("expected ',' or '}' in object")
                }
                return JSONNode(value: .object(members), line: start)
            case UInt8(ascii: "["):
                i += 1
                var elements: [JSONNode] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return JSONNode(value: .array(elements), line: start)
                }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of JSON in array") }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        break
                    }
                    throw fail("expected ',' or ']' in array")
                }
                return JSONNode(value: .array(elements), line: start)
            case UInt8(ascii: "\""):
                return JSONNode(value: .string(try string()), line: start)
            case UInt8(ascii: "t"):
                try literal("true")
                return JSONNode(value: .bool(true), line: start)
            case UInt8(ascii: "f"):
                try literal("false")
                return JSONNode(value: .bool(false), line: start)
            case UInt8(ascii: "n"):
                try literal("null")
                return JSONNode(value: .null, line: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let from = i
                i += 1
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"),
                        UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                        i += 1
                        continue
                    default: break
                    }
                    break
                }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<i]), as: UTF8.self)
                return JSONNode(value: .number(text), line: start)
            default:
                throw fail("unexpected character in JSON")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count else { throw fail("unexpected end of JSON") }
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: n)
            for k in 0..<n where bytes[i + k] != expected[k] { throw fail("invalid literal in JSON") }
            i += n
        }

        /// Reads a string starting at the opening quote; the fast path copies escape-free runs.
        mutating func string() throws -> String {
            i += 1
            let from = i
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\"") {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<i]), as: UTF8.self)
                    i += 1
                    return s
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw fail("control character in JSON string") }
                i += 1
            }
            var out = Array(UnsafeBufferPointer(rebasing: bytes[from..<i]))
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\"") {
                    i += 1
                    return String(decoding: out, as: UTF8.self)
                }
                if byte < 0x20 { throw fail("control character in JSON string") }
                if byte != UInt8(ascii: "\\") {
                    out.append(byte)
                    i += 1
                    continue
                }
                guard i + 1 < bytes.count else { break }
                let escape = bytes[i + 1]
                i += 2
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count,
                        bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                    {
                        i += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                    }
                    out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
                default:
                    throw fail("invalid escape in JSON string")
                }
            }
            throw fail("unterminated JSON string")
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count else { throw fail("truncated \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
                default: throw fail("invalid \\u escape")
                }
                v = v << 4 | UInt32(d)
                i += 1
            }
            return v
        }
    }
}
