/// The XML side of `Sitemap`: walks tags once, keeping a bounded stack of local names so a
/// `<loc>` is taken only directly under `<url>` or `<sitemap>` (not `<image:loc>` and the like).
struct SitemapXMLReader {
    let bytes: [UInt8]
    var position: Int
    private var stack: [String] = []
    private var urls: [String] = []
    private var sitemaps: [String] = []

    init(bytes: [UInt8], position: Int) {
        self.bytes = bytes
        self.position = position
    }

    mutating func read() -> (urls: [String], sitemaps: [String]) {
        while position < bytes.count, urls.count + sitemaps.count < Sitemap.maxEntries {
            guard let open = bytes[position...].firstIndex(of: UInt8(ascii: "<")) else { break }
            position = open
            if skip("<!--", to: "-->") || skip("<![CDATA[", to: "]]>") || skip("<?", to: "?>") || skip("<!", to: ">") {
                continue
            }
            tag()
        }
        return (urls, sitemaps)
    }

    /// Skips a construct opening with `opener` past its `closer` (to the end if unclosed).
    private mutating func skip(_ opener: String, to closer: String) -> Bool {
        guard HTMLBytes.hasPrefix(bytes, at: position, opener) else { return false }
        position += opener.utf8.count
        let found = ByteSearch.offsets(of: Array(closer.utf8), in: bytes, range: position..<bytes.count, limit: 1)
        position = found.first.map { $0 + closer.utf8.count } ?? bytes.count
        return true
    }

    private mutating func tag() {
        let closing = position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "/")
        let nameStart = position + (closing ? 2 : 1)
        var cursor = nameStart
        while cursor < bytes.count, !HTMLBytes.isTagNameEnd(bytes[cursor]) { cursor += 1 }
        let qualified = HTMLBytes.lowercased(bytes[nameStart..<min(cursor, nameStart + 256)])
        let name = String(qualified.split(separator: ":").last ?? "")
        // Attribute values are quoted in XML and may hold `>`.
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
        let selfClosing = cursor > 0 && cursor < bytes.count && bytes[cursor - 1] == UInt8(ascii: "/")
        position = min(cursor + 1, bytes.count)
        if closing {
            if stack.last == name { stack.removeLast() }
        } else if name == "loc", !selfClosing {
            location(parent: stack.last)
        } else if !selfClosing, stack.count < 256 {
            stack.append(name)
        }
    }

    /// The text of a `<loc>` (CDATA included), filed under its parent.
    private mutating func location(parent: String?) {
        var text: [UInt8] = []
        while position < bytes.count {
            if HTMLBytes.hasPrefix(bytes, at: position, "<![CDATA[") {
                let start = position + 9
                let end = ByteSearch.offsets(of: Array("]]>".utf8), in: bytes, range: start..<bytes.count, limit: 1).first
                // Kept up to one byte past the limit: enough to know the location is too long.
                let room = max(0, Sitemap.maxLocationBytes + 1 - text.count)
                text += bytes[start..<(end ?? bytes.count)].prefix(room)
                position = (end ?? bytes.count - 3) + 3
                continue
            }
            if bytes[position] == UInt8(ascii: "<") { break }
            if text.count <= Sitemap.maxLocationBytes { text.append(bytes[position]) }
            position += 1
        }
        guard text.count <= Sitemap.maxLocationBytes else { return }
        let value = URLText.trimmed(HTMLEntities.decode(text[...], inAttribute: false))
        guard !value.isEmpty else { return }
        if parent == "sitemap" { sitemaps.append(value) } else if parent == "url" { urls.append(value) }
    }
}
