import Web

/// Sitemaps (sitemaps.org): `<urlset><url><loc>` pages, `<sitemapindex><sitemap><loc>` nested
/// sitemaps, and plain-text sitemaps of one URL per line. Read with a small linear scanner,
/// tolerant of namespace prefixes, comments and CDATA; never fails.
public enum Sitemap {
    /// The most entries returned (the protocol's own limit per file).
    public static let maxEntries = 50_000
    /// The longest `<loc>` kept.
    static let maxLocationBytes = 4_096

    /// The page URLs and the sitemap URLs listed, entity-decoded and trimmed, in order.
    public static func parse(_ xml: String) -> (urls: [String], sitemaps: [String]) {
        let bytes = Array(xml.utf8)
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, HTMLBytes.isSpace(bytes[start]) { start += 1 }
        guard start < bytes.count else { return ([], []) }
        guard bytes[start] == UInt8(ascii: "<") else { return (plainText(bytes[start...]), []) }
        var reader = SitemapXMLReader(bytes: bytes, position: start)
        return reader.read()
    }

    /// One absolute `http(s)` URL per line; other lines are ignored.
    private static func plainText(_ bytes: ArraySlice<UInt8>) -> [String] {
        var urls: [String] = []
        for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) where urls.count < maxEntries {
            let text = URLText.trimmed(String(decoding: line, as: UTF8.self))
            let lower = text.prefix(8).lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), text.utf8.count <= maxLocationBytes,
                !text.utf8.contains(where: URLText.isSpaceOrControl)
            else { continue }
            urls.append(text)
        }
        return urls
    }
}
