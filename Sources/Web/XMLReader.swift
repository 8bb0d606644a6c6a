/// The one XML reader, for XML from untrusted hands (a sitemap a server sends, a JUnit report
/// taken from a repository or CI): one linear pass over the bytes that hands out events. It
/// has no DTD processing, no entity definitions and no entity expansion (``decoded(_:inAttribute:)``
/// knows XML's five references and numeric ones only), fetches nothing and does not recurse, so
/// XXE, billion laughs and deep nesting have nothing to act on; a caller keeping a stack bounds
/// it. Comments, processing instructions and `<!…>` declarations (a DOCTYPE up to its first `>`)
/// are skipped as markup. It never fails: a caller that wants well-formed XML checks the events.
package struct XMLReader {
    /// One construct of the document, as ranges of ``bytes``.
    package enum Event: Equatable {
        /// `<name …>` or `<name …/>`: the name (its first 256 bytes), the bytes between the name
        /// and `>` (attributes, and the `/` of an empty element), and whether a `>` closed it.
        case start(name: Range<Int>, attributes: Range<Int>, selfClosing: Bool, closed: Bool)
        /// `</name>`: the name (its first 256 bytes) and whether a `>` closed it.
        case end(name: Range<Int>, closed: Bool)
        /// Character data up to the next `<`, references not decoded.
        case text(Range<Int>)
        /// The content of a `<![CDATA[…]]>` section; not closed when it runs to the end.
        case cdata(Range<Int>, closed: Bool)
        /// A comment, processing instruction or declaration, skipped; not closed when it runs to the end.
        case markup(closed: Bool)
    }

    /// The longest element name kept.
    package static let maxNameBytes = 256

    /// The document.
    package let bytes: [UInt8]
    /// Where the next event starts.
    package private(set) var position: Int

    /// A reader of `bytes` from `position`.
    package init(bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// The next event; nil at the end.
    package mutating func next() -> Event? {
        guard position < bytes.count else { return nil }
        guard bytes[position] == UInt8(ascii: "<") else {
            let start = position
            position = bytes[position...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
            return .text(start..<position)
        }
        if let closed = skip("<!--", to: "-->") { return .markup(closed: closed) }
        if HTMLBytes.hasPrefix(bytes, at: position, "<![CDATA[") {
            let start = position + 9
            let end = first("]]>", from: start)
            position = end.map { $0 + 3 } ?? bytes.count
            return .cdata(start..<(end ?? bytes.count), closed: end != nil)
        }
        if let closed = skip("<?", to: "?>") ?? skip("<!", to: ">") { return .markup(closed: closed) }
        return tag()
    }

    /// Skips a construct opening with `opener` past its `closer` (to the end if unclosed): nil
    /// when there is none here, else whether it was closed.
    private mutating func skip(_ opener: String, to closer: String) -> Bool? {
        guard HTMLBytes.hasPrefix(bytes, at: position, opener) else { return nil }
        position += opener.utf8.count
        let found = first(closer, from: position)
        position = found.map { $0 + closer.utf8.count } ?? bytes.count
        return found != nil
    }

    /// The offset of the first `needle` at or after `start` (needles here are a few bytes long).
    private func first(_ needle: String, from start: Int) -> Int? {
        let needle = Array(needle.utf8)
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// A start or end tag at `<`; attribute values are quoted in XML and may hold `>`.
    private mutating func tag() -> Event {
        let closing = position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "/")
        let nameStart = position + (closing ? 2 : 1)
        var cursor = nameStart
        while cursor < bytes.count, !HTMLBytes.isTagNameEnd(bytes[cursor]) { cursor += 1 }
        let name = nameStart..<min(cursor, nameStart + Self.maxNameBytes)
        let attributesStart = cursor
        var quote: UInt8?
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            }
            cursor += 1
        }
        let closed = cursor < bytes.count
        let selfClosing = cursor > 0 && closed && bytes[cursor - 1] == UInt8(ascii: "/")
        position = min(cursor + 1, bytes.count)
        if closing { return .end(name: name, closed: closed) }
        return .start(name: name, attributes: attributesStart..<cursor, selfClosing: selfClosing, closed: closed)
    }
}

extension XMLReader {
    /// The text of `range` (an element name).
    package func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The attributes of a start tag (its `attributes` range) with their values decoded as XML
    /// normalises them; nil when they are not well-formed XML (an unquoted value, a missing `=`,
    /// no space between two, a name given twice, `<` or an unknown reference in a value).
    package func attributes(_ range: Range<Int>, selfClosing: Bool) -> [(name: String, value: String)]? {
        let end = selfClosing ? range.upperBound - 1 : range.upperBound
        var result: [(name: String, value: String)] = []
        var index = range.lowerBound
        while true {
            let spaceStart = index
            while index < end, Self.isSpace(bytes[index]) { index += 1 }
            guard index < end else { return result }
            guard index > spaceStart else { return nil }
            let nameStart = index
            while index < end, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: "=") { index += 1 }
            guard index > nameStart else { return nil }
            let name = string(nameStart..<index)
            while index < end, Self.isSpace(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            while index < end, Self.isSpace(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            let valueStart = index + 1
            guard let close = bytes[valueStart..<end].firstIndex(of: quote),
                let value = Self.decoded(bytes[valueStart..<close], inAttribute: true),
                !result.contains(where: { $0.name == name })
            else { return nil }
            result.append((name, value))
            index = close + 1
        }
    }

    /// XML whitespace: space, tab, LF, CR.
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Character data or an attribute value as XML reads it: line ends become LF (a space in an
    /// attribute value, as do tabs), `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and numeric references
    /// are decoded. Nil when it is not well-formed: another reference (nothing declares one), a
    /// bare `&`, a character XML does not allow, or `<` in an attribute value.
    package static func decoded(_ bytes: ArraySlice<UInt8>, inAttribute: Bool) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"):
                guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")),
                    let scalar = reference(bytes[(index + 1)..<semicolon])
                else { return nil }
                out += Array(String(Character(scalar)).utf8)
                index = semicolon + 1
                continue
            case 0x0D:
                out.append(inAttribute ? 0x20 : 0x0A)
                if index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A { index += 1 }
            case 0x0A, 0x09:
                out.append(inAttribute ? 0x20 : byte)
            case UInt8(ascii: "<") where inAttribute:
                return nil
            case ..<0x20:
                return nil
            default:
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The character a reference's name (between `&` and `;`) stands for.
    private static func reference(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        case let text where text.hasPrefix("#x"):
            return UInt32(text.dropFirst(2), radix: 16).flatMap(character)
        case let text where text.hasPrefix("#"):
            return UInt32(text.dropFirst(), radix: 10).flatMap(character)
        default: return nil
        }
    }

    /// `value` when XML allows it as a character (`Char`).
    private static func character(_ value: UInt32) -> Unicode.Scalar? {
        guard
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x1_0000...0x10_FFFF).contains(value)
        else { return nil }
        return Unicode.Scalar(value)
    }
}
