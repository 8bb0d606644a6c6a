/// A strict RFC 8259 reader over bytes that records lines and columns. It works on bytes, not
/// `Codable`, because lockfiles are large and their findings need lines. Depth is bounded so
/// hostile input cannot exhaust the stack.
public enum JSON {
    /// The deepest nesting accepted.
    public static let maxDepth = 256

    /// What a document may hold beyond RFC 8259.
    public enum Dialect: Sendable {
        /// RFC 8259 exactly.
        case strict
        /// JSON with comments (`//`, `/* */`) and a trailing comma before `}` or `]`, as Bun's
        /// `bun.lock`, `tsconfig.json` and editors' settings are written.
        case jsonc
    }

    /// Parses one JSON document (a UTF-8 BOM is skipped); errors read `FILE:LINE: problem`.
    public static func parse(_ bytes: [UInt8], file: String, dialect: Dialect = .strict) throws -> DocumentNode {
        let body = DocumentInput.droppingBOM(bytes)
        return try body.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, file: file, jsonc: dialect == .jsonc)
            reader.skipSpace()
            guard reader.i < buffer.count else { throw DocumentInput.malformed(file, reader.line, "empty JSON document") }
            let node = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.i == buffer.count else {
                throw DocumentInput.malformed(file, reader.line, "unexpected text after the JSON document")
            }
            return node
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        var i = 0
        var line = 1
        /// Index of the first byte of the current line, for columns.
        var lineStart = 0

        /// Comments and trailing commas allowed.
        let jsonc: Bool

        init(bytes: UnsafeBufferPointer<UInt8>, file: String, jsonc: Bool) {
            self.bytes = bytes
            self.file = file
            self.jsonc = jsonc
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x0A:
                    line += 1
                    lineStart = i + 1
                case 0x20, 0x09, 0x0D: break
                case UInt8(ascii: "/") where jsonc && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    continue
                case UInt8(ascii: "/") where jsonc && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                    i += 2
                    while i < bytes.count, !(bytes[i] == UInt8(ascii: "*") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")) {
                        if bytes[i] == 0x0A {
                            line += 1
                            lineStart = i + 1
                        }
                        i += 1
                    }
                    // An unterminated comment ends the document; the caller reports what is missing.
                    i = min(i + 2, bytes.count)
                    continue
                default: return
                }
                i += 1
            }
        }

        /// After a comma: true (and past it) when a JSONC trailing comma is followed by `close`.
        mutating func closesAfterComma(_ close: UInt8) -> Bool {
            guard jsonc else { return false }
            skipSpace()
            guard i < bytes.count, bytes[i] == close else { return false }
            i += 1
            return true
        }

        func fail(_ what: String) -> Error { DocumentInput.malformed(file, line, what) }

        var column: Int { i - lineStart + 1 }

        mutating func value(depth: Int) throws -> DocumentNode {
            guard depth < JSON.maxDepth else { throw fail("JSON nested too deeply") }
            guard i < bytes.count else { throw fail("unexpected end of JSON") }
            let start = line
            let startColumn = column
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [DocumentMember] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    return DocumentNode(.object(members), line: start, column: startColumn)
                }
                while true {
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of JSON in object") }
                    guard bytes[i] == UInt8(ascii: "\"") else {
                        throw fail("expected a string key in object")
                    }
                    let keyLine = line
                    let keyColumn = column
                    let key = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                        throw fail("expected ':' after key \"\(key)\"")
                    }
                    i += 1
                    skipSpace()
                    let child = try value(depth: depth + 1)
                    members.append(DocumentMember(key: key, line: keyLine, column: keyColumn, value: child))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of JSON in object") }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        if closesAfterComma(UInt8(ascii: "}")) { break }
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        break
                    }
                    throw fail("expected ',' or '}' in object")
                }
                return DocumentNode(.object(JSON.lastValueWins(members)), line: start, column: startColumn)
            case UInt8(ascii: "["):
                i += 1
                var elements: [DocumentNode] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return DocumentNode(.array(elements), line: start, column: startColumn)
                }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of JSON in array") }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        if closesAfterComma(UInt8(ascii: "]")) { break }
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        break
                    }
                    throw fail("expected ',' or ']' in array")
                }
                return DocumentNode(.array(elements), line: start, column: startColumn)
            case UInt8(ascii: "\""):
                return DocumentNode(.string(try string()), line: start, column: startColumn)
            case UInt8(ascii: "t"):
                try literal("true")
                return DocumentNode(.bool(true), line: start, column: startColumn)
            case UInt8(ascii: "f"):
                try literal("false")
                return DocumentNode(.bool(false), line: start, column: startColumn)
            case UInt8(ascii: "n"):
                try literal("null")
                return DocumentNode(.null, line: start, column: startColumn)
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
                return DocumentNode(try number(from: from), line: start, column: startColumn)
            default:
                throw fail("unexpected character in JSON")
            }
        }

        /// An integer when the text is one that fits `Int`, else a double; the grammar is
        /// checked here because the scan above only collects the characters numbers use.
        func number(from: Int) throws -> DocumentNode.Value {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<i]), as: UTF8.self)
            guard JSON.isNumber(text.utf8) else { throw fail("invalid number '\(text)' in JSON") }
            if let integer = Int(text) { return .integer(integer) }
            guard let double = Double(text) else { throw fail("invalid number '\(text)' in JSON") }
            return .double(double)
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

    /// RFC 8259 `number`: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumber(_ text: String.UTF8View) -> Bool {
        var bytes = text[...]
        func digits(_ bytes: inout Substring.UTF8View) -> Int {
            var count = 0
            while let c = bytes.first, c >= 0x30, c <= 0x39 {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if digits(&bytes) == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard digits(&bytes) > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits(&bytes) > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
