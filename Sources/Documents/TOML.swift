/// A TOML table that remembers the 1-based line of its header and of each key.
/// A class because headers such as `[package.dependencies]` reopen a table made earlier.
final class TOMLTable {
    struct Entry {
        let key: String
        let line: Int
        var column = 1
        var value: TOMLValue

        init(key: String, line: Int, column: Int = 1, value: TOMLValue) {
            self.key = key
            self.line = line
            self.column = column
            self.value = value
        }
    }

    let line: Int
    private(set) var entries: [Entry] = []
    /// Where each key is in `entries`: tables with many keys are looked up in constant time.
    private var positions: [String: Int] = [:]
    /// Whether the table was made by a header or dotted key (may be extended) or inline (closed).
    var isInline = false

    init(line: Int) { self.line = line }

    subscript(key: String) -> TOMLValue? {
        position(of: key).map { entries[$0].value }
    }

    /// The index of `key` in `entries`.
    func position(of key: String) -> Int? { positions[key] }

    /// Adds an entry whose key is not there yet.
    func append(_ entry: Entry) {
        positions[entry.key] = entries.count
        entries.append(entry)
    }

    /// Replaces the value at `position`.
    func setValue(_ value: TOMLValue, at position: Int) {
        entries[position].value = value
    }

    func string(_ key: String) -> String? {
        if case .string(let s)? = self[key] { return s }
        return nil
    }

    func table(_ key: String) -> TOMLTable? {
        if case .table(let t)? = self[key] { return t }
        return nil
    }

    func tables(_ key: String) -> [TOMLTable] {
        if case .tableArray(let ts)? = self[key] { return ts }
        return []
    }

    func array(_ key: String) -> [TOMLValue] {
        if case .array(let a)? = self[key] { return a.map(\.value) }
        return []
    }
}

/// One element of an array with where it is written: a requirement in a multi-line
/// `dependencies = [...]` is reported at its own line, not at the line of the key.
struct TOMLElement {
    let value: TOMLValue
    let line: Int
    let column: Int
}

/// A TOML value; numbers, dates and booleans are kept as their text (`bare`): lockfiles only
/// need them for a format version.
enum TOMLValue {
    case string(String)
    case bare(String)
    case array([TOMLElement])
    case table(TOMLTable)
    case tableArray([TOMLTable])

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var text: String? {
        switch self {
        case .string(let s), .bare(let s): return s
        default: return nil
        }
    }

    var table: TOMLTable? {
        if case .table(let t) = self { return t }
        return nil
    }
}

/// Reads TOML into `DocumentNode`s: the subset lockfiles and manifests use (tables, arrays of
/// tables, dotted and quoted keys, basic, literal and multi-line strings, arrays and inline tables
/// across lines, comments). Hand-written because no TOML library keeps line numbers.
public enum TOML {
    /// Parses one document (a UTF-8 BOM is skipped); errors read `FILE:LINE: problem`.
    /// Tables are positioned at their header, values at their key, an array's elements where each is written.
    public static func parse(_ bytes: [UInt8], file: String) throws -> DocumentNode {
        node(try PositionedTOML.parse(bytes, file: file))
    }

    static func node(_ table: TOMLTable) -> DocumentNode {
        let members = table.entries.map { entry in
            DocumentMember(
                key: entry.key, line: entry.line, column: entry.column,
                value: node(entry.value, line: entry.line, column: entry.column))
        }
        return DocumentNode(.object(members), line: table.line, column: 1)
    }

    static func node(_ value: TOMLValue, line: Int, column: Int) -> DocumentNode {
        switch value {
        case .string(let text): return DocumentNode(.string(text), line: line, column: column)
        case .bare(let text): return DocumentNode(scalar(text), line: line, column: column)
        case .array(let items):
            return DocumentNode(
                .array(items.map { node($0.value, line: $0.line, column: $0.column) }), line: line, column: column)
        case .table(let table) where table.isInline:
            return DocumentNode(node(table).value, line: line, column: column)
        case .table(let table): return node(table)
        case .tableArray(let tables): return DocumentNode(.array(tables.map(node)), line: line, column: column)
        }
    }

    /// Booleans and numbers typed; dates and times stay text as written.
    static func scalar(_ text: String) -> DocumentNode.Value {
        if text == "true" || text == "false" { return .bool(text == "true") }
        let digits = text.replacing("_", with: "")
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            if let number = Int(digits.dropFirst(2), radix: radix) { return .integer(number) }
        }
        if let number = Int(digits) { return .integer(number) }
        if !digits.contains(":"), digits.filter({ $0 == "-" }).count < 2, let number = Double(digits) {
            return .double(number)
        }
        return .string(text)
    }
}

/// The reader's own tree: tables are reopened by later headers, so they are built as classes
/// and turned into `DocumentNode`s once the whole file is read.
struct PositionedTOML {
    static let maxDepth = 128

    static func parse(_ bytes: [UInt8], file: String) throws -> TOMLTable {
        let body = Array(DocumentInput.droppingBOM(bytes))
        var reader = Reader(bytes: body, file: file)
        return try reader.document()
    }

    private struct Reader {
        let bytes: [UInt8]
        let file: String
        var i = 0
        var line = 1
        /// How far `column()` has looked, and the start of the line there: `i` only moves
        /// forward, so finding line starts stays linear however many keys a line holds.
        var scannedTo = 0
        var lineStart = 0

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        func fail(_ what: String) -> Error { DocumentInput.malformed(file, line, what) }

        /// The 1-based byte column of `i`.
        mutating func column() -> Int {
            while scannedTo < i {
                if bytes[scannedTo] == 0x0A || bytes[scannedTo] == 0x0D { lineStart = scannedTo + 1 }
                scannedTo += 1
            }
            return i - lineStart + 1
        }

        var atEnd: Bool { i >= bytes.count }
        var current: UInt8 { bytes[i] }

        mutating func skipBlank() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        }

        mutating func skipComment() {
            if i < bytes.count, bytes[i] == UInt8(ascii: "#") {
                while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
            }
        }

        /// Consumes a line end (or end of input); anything else there is an error.
        mutating func endOfLine() throws {
            skipBlank()
            skipComment()
            if atEnd { return }
            if bytes[i] == 0x0D {
                i += 1
                if i < bytes.count, bytes[i] == 0x0A { i += 1 }
                line += 1
                return
            }
            if bytes[i] == 0x0A {
                i += 1
                line += 1
                return
            }
            throw fail("unexpected text after a value")
        }

        /// Whitespace, newlines and comments, as allowed inside arrays.
        mutating func skipSpaceAndNewlines() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09: i += 1
                case 0x0A:
                    i += 1
                    line += 1
                case 0x0D:
                    i += 1
                    if i < bytes.count, bytes[i] == 0x0A { i += 1 }
                    line += 1
                case UInt8(ascii: "#"): skipComment()
                default: return
                }
            }
        }

        mutating func document() throws -> TOMLTable {
            let root = TOMLTable(line: 1)
            var current = root
            var currentDepth = 0
            var defined = Set<ObjectIdentifier>()
            while true {
                skipSpaceAndNewlines()
                if atEnd { return root }
                if bytes[i] == UInt8(ascii: "[") {
                    let headerLine = line
                    let isArray = i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "[")
                    i += isArray ? 2 : 1
                    skipBlank()
                    let path = try keyPath()
                    skipBlank()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else {
                        throw fail("expected ']' to close the table header")
                    }
                    i += 1
                    if isArray {
                        guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else {
                            throw fail("expected ']]' to close the array of tables header")
                        }
                        i += 1
                    }
                    try endOfLine()
                    current = try open(path: path, in: root, isArray: isArray, line: headerLine, defined: &defined)
                    currentDepth = path.count
                    continue
                }
                try keyValue(into: current, depth: currentDepth)
                try endOfLine()
            }
        }

        /// Finds or makes the table a header names; `[[x]]` appends a new element to `x`.
        mutating func open(
            path: [String], in root: TOMLTable, isArray: Bool, line headerLine: Int,
            defined: inout Set<ObjectIdentifier>
        ) throws -> TOMLTable {
            var table = root
            for (index, key) in path.enumerated() {
                let last = index == path.count - 1
                let position = table.position(of: key)
                if last {
                    if isArray {
                        let fresh = TOMLTable(line: headerLine)
                        if let position {
                            guard case .tableArray(var list) = table.entries[position].value else {
                                throw DocumentInput.malformed(
                                    file, headerLine, "'\(path.joined(separator: "."))' is not an array of tables")
                            }
                            // Drop the entry's reference first so the append happens in place:
                            // otherwise every [[package]] copies all earlier ones.
                            table.setValue(.bare(""), at: position)
                            list.append(fresh)
                            table.setValue(.tableArray(list), at: position)
                        } else {
                            table.append(.init(key: key, line: headerLine, value: .tableArray([fresh])))
                        }
                        return fresh
                    }
                    if let position {
                        guard case .table(let existing) = table.entries[position].value, !existing.isInline else {
                            throw DocumentInput.malformed(file, headerLine, "'\(path.joined(separator: "."))' is already defined")
                        }
                        // Re-opening a header is an error; a table implied by a dotted header is not.
                        guard defined.insert(ObjectIdentifier(existing)).inserted else {
                            throw DocumentInput.malformed(file, headerLine, "table [\(path.joined(separator: "."))] defined twice")
                        }
                        return existing
                    }
                    let fresh = TOMLTable(line: headerLine)
                    defined.insert(ObjectIdentifier(fresh))
                    table.append(.init(key: key, line: headerLine, value: .table(fresh)))
                    return fresh
                }
                if let position {
                    switch table.entries[position].value {
                    case .table(let next) where !next.isInline: table = next
                    case .tableArray(let list) where !list.isEmpty: table = list[list.count - 1]
                    default: throw DocumentInput.malformed(file, headerLine, "'\(key)' is not a table")
                    }
                } else {
                    let fresh = TOMLTable(line: headerLine)
                    table.append(.init(key: key, line: headerLine, value: .table(fresh)))
                    table = fresh
                }
            }
            return table
        }

        /// Reads `key = value` into `table`, which is `depth` tables below the root: each
        /// segment of a dotted key is one table deeper, so the key's length counts towards
        /// the bound as nesting does.
        mutating func keyValue(into table: TOMLTable, depth: Int) throws {
            let keyLine = line
            let keyColumn = column()
            let path = try keyPath()
            guard depth + path.count < PositionedTOML.maxDepth else { throw fail("TOML key nested too deeply") }
            skipBlank()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw fail("expected '=' after key '\(path.joined(separator: "."))'")
            }
            i += 1
            skipBlank()
            let value = try self.value(depth: depth + path.count)
            var target = table
            for key in path.dropLast() {
                if let position = target.position(of: key) {
                    guard case .table(let next) = target.entries[position].value, !next.isInline else {
                        throw DocumentInput.malformed(file, keyLine, "'\(key)' is not a table")
                    }
                    target = next
                } else {
                    let fresh = TOMLTable(line: keyLine)
                    target.append(.init(key: key, line: keyLine, value: .table(fresh)))
                    target = fresh
                }
            }
            guard let last = path.last else { throw DocumentInput.malformed(file, keyLine, "empty key") }
            guard target.position(of: last) == nil else {
                throw DocumentInput.malformed(file, keyLine, "duplicate key '\(path.joined(separator: "."))'")
            }
            target.append(.init(key: last, line: keyLine, column: keyColumn, value: value))
        }

        /// The segments of a (dotted) key; at most `maxDepth` of them, since each is a table.
        mutating func keyPath() throws -> [String] {
            var path: [String] = []
            while true {
                guard path.count < PositionedTOML.maxDepth else { throw fail("TOML key nested too deeply") }
                skipBlank()
                guard i < bytes.count else { throw fail("expected a key") }
                switch bytes[i] {
                case UInt8(ascii: "\""): path.append(try basicString())
                case UInt8(ascii: "'"): path.append(try literalString())
                default:
                    let from = i
                    while i < bytes.count, Reader.isBareKey(bytes[i]) { i += 1 }
                    guard i > from else { throw fail("expected a key") }
                    path.append(String(decoding: bytes[from..<i], as: UTF8.self))
                }
                skipBlank()
                if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                    i += 1
                    continue
                }
                return path
            }
        }

        static func isBareKey(_ c: UInt8) -> Bool {
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default: return false
            }
        }

        mutating func value(depth: Int) throws -> TOMLValue {
            guard depth < PositionedTOML.maxDepth else { throw fail("TOML nested too deeply") }
            guard i < bytes.count else { throw fail("expected a value") }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                if hasTriple(UInt8(ascii: "\"")) { return .string(try multilineString(literal: false)) }
                return .string(try basicString())
            case UInt8(ascii: "'"):
                if hasTriple(UInt8(ascii: "'")) { return .string(try multilineString(literal: true)) }
                return .string(try literalString())
            case UInt8(ascii: "["):
                i += 1
                var elements: [TOMLElement] = []
                while true {
                    skipSpaceAndNewlines()
                    guard i < bytes.count else { throw fail("unterminated array") }
                    if bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        return .array(elements)
                    }
                    let elementLine = line
                    let elementColumn = column()
                    elements.append(TOMLElement(value: try value(depth: depth + 1), line: elementLine, column: elementColumn))
                    skipSpaceAndNewlines()
                    guard i < bytes.count else { throw fail("unterminated array") }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "]") {
                        i += 1
                        return .array(elements)
                    }
                    throw fail("expected ',' or ']' in array")
                }
            case UInt8(ascii: "{"):
                let table = TOMLTable(line: line)
                i += 1
                skipBlank()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    table.isInline = true
                    return .table(table)
                }
                while true {
                    // Newlines inside inline tables are not TOML 1.0, but 1.1 allows them; accept.
                    skipSpaceAndNewlines()
                    try keyValue(into: table, depth: depth)
                    skipSpaceAndNewlines()
                    guard i < bytes.count else { throw fail("unterminated inline table") }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        skipSpaceAndNewlines()
                        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                            i += 1
                            break
                        }
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        break
                    }
                    throw fail("expected ',' or '}' in inline table")
                }
                table.isInline = true
                return .table(table)
            default:
                let from = i
                while i < bytes.count {
                    let c = bytes[i]
                    if c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}")
                        || c == UInt8(ascii: "#")
                        || c == 0x0A || c == 0x0D
                    {
                        break
                    }
                    // A space ends the value unless it joins a date and a time.
                    if c == 0x20 || c == 0x09 {
                        if i + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i + 1]),
                            i - from == 10
                        {
                            i += 1
                            continue
                        }
                        break
                    }
                    i += 1
                }
                guard i > from else { throw fail("expected a value") }
                let text = String(decoding: bytes[from..<i], as: UTF8.self)
                guard Reader.isBareValue(text) else { throw DocumentInput.malformed(file, line, "invalid value '\(text)'") }
                return .bare(text)
            }
        }

        static func isBareValue(_ text: String) -> Bool {
            if text == "true" || text == "false" || text.hasSuffix("inf") || text.hasSuffix("nan") { return true }
            guard let first = text.utf8.first else { return false }
            return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "+")
                || first == UInt8(ascii: "-")
        }

        func hasTriple(_ quote: UInt8) -> Bool {
            i + 2 < bytes.count && bytes[i] == quote && bytes[i + 1] == quote && bytes[i + 2] == quote
        }

        mutating func literalString() throws -> String {
            i += 1
            let from = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "'") {
                if bytes[i] == 0x0A || bytes[i] == 0x0D { throw fail("unterminated string") }
                i += 1
            }
            guard i < bytes.count else { throw fail("unterminated string") }
            let s = String(decoding: bytes[from..<i], as: UTF8.self)
            i += 1
            return s
        }

        mutating func basicString() throws -> String {
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    return String(decoding: out, as: UTF8.self)
                }
                if c == 0x0A || c == 0x0D { throw fail("unterminated string") }
                if c == UInt8(ascii: "\\") {
                    try escape(into: &out)
                    continue
                }
                out.append(c)
                i += 1
            }
            throw fail("unterminated string")
        }

        mutating func multilineString(literal: Bool) throws -> String {
            let quote = bytes[i]
            i += 3
            // A newline right after the opening delimiter is trimmed.
            if i < bytes.count, bytes[i] == 0x0D { i += 1 }
            if i < bytes.count, bytes[i] == 0x0A {
                i += 1
                line += 1
            }
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                if c == quote, hasTriple(quote) {
                    i += 3
                    // Up to two more quotes belong to the content ("""a"""" is `a"`).
                    var extra = 0
                    while extra < 2, i < bytes.count, bytes[i] == quote {
                        out.append(quote)
                        i += 1
                        extra += 1
                    }
                    return String(decoding: out, as: UTF8.self)
                }
                if c == 0x0A { line += 1 }
                if !literal, c == UInt8(ascii: "\\") {
                    // A line-ending backslash swallows the newline and following whitespace.
                    var j = i + 1
                    while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                    if j < bytes.count, bytes[j] == 0x0A || bytes[j] == 0x0D {
                        i = j
                        skipSpaceAndNewlinesOnly()
                        continue
                    }
                    try escape(into: &out)
                    continue
                }
                out.append(c)
                i += 1
            }
            throw fail("unterminated multi-line string")
        }

        mutating func skipSpaceAndNewlinesOnly() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x09, 0x0D: i += 1
                case 0x0A:
                    i += 1
                    line += 1
                default: return
                }
            }
        }

        mutating func escape(into out: inout [UInt8]) throws {
            guard i + 1 < bytes.count else { throw fail("unterminated string") }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "e"): out.append(0x1B)
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let n = e == UInt8(ascii: "u") ? 4 : 8
                guard i + n <= bytes.count else { throw fail("truncated unicode escape") }
                var v: UInt32 = 0
                for _ in 0..<n {
                    guard let d = Reader.hexValue(bytes[i]) else { throw fail("invalid unicode escape") }
                    v = v &<< 4 | d
                    i += 1
                }
                guard let scalar = Unicode.Scalar(v) else { throw fail("invalid unicode scalar in escape") }
                out.append(contentsOf: String(scalar).utf8)
            default:
                throw fail("invalid escape in string")
            }
        }

        static func hexValue(_ c: UInt8) -> UInt32? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
    }
}
