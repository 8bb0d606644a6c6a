import Web

/// The XML side of `Sitemap`: reads the events of the one `XMLReader`, keeping a bounded stack
/// of local names so a `<loc>` is taken only directly under `<url>` or `<sitemap>` (not
/// `<image:loc>` and the like).
struct SitemapXMLReader {
    private var reader: XMLReader
    private var stack: [String] = []
    private var urls: [String] = []
    private var sitemaps: [String] = []

    init(bytes: [UInt8], position: Int) {
        reader = XMLReader(bytes: bytes, position: position)
    }

    mutating func read() -> (urls: [String], sitemaps: [String]) {
        var pending = reader.next()
        while let event = pending, urls.count + sitemaps.count < Sitemap.maxEntries {
            pending = reader.next()
            switch event {
            case .end(let name, _):
                if stack.last == localName(name) { stack.removeLast() }
            case .start(let name, _, let selfClosing, _):
                let name = localName(name)
                if name == "loc", !selfClosing {
                    pending = location(parent: stack.last, next: pending)
                } else if !selfClosing, stack.count < 256 {
                    stack.append(name)
                }
            case .text, .cdata, .markup:
                break
            }
        }
        return (urls, sitemaps)
    }

    /// The local name (after the last `:`), lowercased.
    private func localName(_ range: Range<Int>) -> String {
        String(HTMLBytes.lowercased(reader.bytes[range]).split(separator: ":").last ?? "")
    }

    /// The text of a `<loc>` (CDATA included), filed under its parent: the text and CDATA events
    /// from `next` on. Returns the first other event.
    private mutating func location(parent: String?, next: XMLReader.Event?) -> XMLReader.Event? {
        var text: [UInt8] = []
        var pending = next
        reading: while let event = pending {
            switch event {
            case .text(let range), .cdata(let range, _):
                // Kept up to one byte past the limit: enough to know the location is too long.
                text += reader.bytes[range].prefix(max(0, Sitemap.maxLocationBytes + 1 - text.count))
            default:
                break reading
            }
            pending = reader.next()
        }
        guard text.count <= Sitemap.maxLocationBytes else { return pending }
        let value = URLText.trimmed(HTMLEntities.decode(text[...], inAttribute: false))
        guard !value.isEmpty else { return pending }
        if parent == "sitemap" { sitemaps.append(value) } else if parent == "url" { urls.append(value) }
        return pending
    }
}
