import Web

/// Reads the attributes of a tag after its name, up to the closing `>`, per the WHATWG
/// attribute states: quoted, unquoted and valueless values, `/` ignored between attributes.
/// Shared by the tokenizer (which keeps a bounded number) and the reflection analysis (which
/// walks every attribute of the tags a marker sits in).
enum HTMLAttributeScanner {
    /// Where the tag ends (just past `>`, or the end of input) and whether `>` was found.
    /// (`/>` means nothing to HTML elements, so it is not reported.)
    struct Result {
        var end: Int
        var terminated: Bool
    }

    /// Visits each attribute in order starting at `start`.
    static func scan(_ bytes: [UInt8], from start: Int, visit: (HTMLAttribute) -> Void) -> Result {
        var index = start
        while true {
            while index < bytes.count, HTMLBytes.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard index < bytes.count else { return Result(end: bytes.count, terminated: false) }
            if bytes[index] == UInt8(ascii: ">") { return Result(end: index + 1, terminated: true) }
            // The first byte belongs to the name even when it is `=` (a parse error browsers accept).
            let nameStart = index
            index += 1
            while index < bytes.count, !HTMLBytes.isAttributeNameEnd(bytes[index]) { index += 1 }
            var attribute = HTMLAttribute(
                name: HTMLBytes.lowercased(bytes[nameStart..<min(index, nameStart + HTMLTokenizer.maxNameBytes)]),
                nameRange: nameStart..<index)
            var cursor = index
            while cursor < bytes.count, HTMLBytes.isSpace(bytes[cursor]) { cursor += 1 }
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
                index = value(bytes, from: cursor + 1, into: &attribute)
            }
            visit(attribute)
        }
    }

    /// Reads a value after `=`; returns the index just past it.
    private static func value(_ bytes: [UInt8], from start: Int, into attribute: inout HTMLAttribute) -> Int {
        var index = start
        while index < bytes.count, HTMLBytes.isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count else {
            attribute.valueRange = index..<index
            return index
        }
        let first = bytes[index]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            let valueStart = index + 1
            let close = bytes[valueStart...].firstIndex(of: first) ?? bytes.count
            attribute.valueRange = valueStart..<close
            attribute.quote = first
            return min(close + 1, bytes.count)
        }
        // Unquoted: up to whitespace or `>`; `<a href=>` has an empty value.
        let valueStart = index
        while index < bytes.count, !HTMLBytes.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
        attribute.valueRange = valueStart..<index
        return index
    }
}
