/// A build's content hash in a file's name, as bundlers name their chunks so that browsers can
/// cache them forever: Vite's `index-BxH3k2_Q.js` (8 base64url characters), webpack's
/// `main.4f3a9c1b.js` or `342.8e2f1a9c.chunk.js`, esbuild's `chunk-5ZLTQ2GZ.js`. A person may
/// name a file like that by chance (`report-2a4b6c8d.js`), so the name counts only together
/// with a chunk's content (`chunkContent`): a long line, or an import of another hashed chunk.
enum HashedChunkName {
    /// Suffixes a bundler adds after the hash (`.chunk.js`), and a minifier's `.min`.
    static let extraSuffixes = [".chunk", ".bundle", ".min"]

    /// Whether `name` (a file's name, without its directory) carries a content hash.
    static func matches(name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        var stem = Substring(name[..<dot])
        for suffix in extraSuffixes where stem.hasSuffix(suffix) { stem = stem.dropLast(suffix.count) }
        // The hash follows the last `.`, or the first `-` of the rest (base64url may hold `-`).
        if let lastDot = stem.lastIndex(of: "."), isHash(stem[stem.index(after: lastDot)...]) { return true }
        var rest = stem[...]
        while let dash = rest.firstIndex(of: "-") {
            let candidate = rest[rest.index(after: dash)...]
            if isHash(candidate) { return true }
            rest = candidate
        }
        return false
    }

    /// Whether `token` looks like a content hash: 8 to 32 characters; lowercase hexadecimal with a
    /// digit and a letter (webpack's, up to 32), or 8 to 10 base64url characters (letters,
    /// digits, `_`, `-`) mixing upper and lower case with a digit or `_`/`-` (Rollup's and Vite's),
    /// or capitals and digits with both (esbuild's).
    static func isHash(_ token: Substring) -> Bool {
        guard (8...32).contains(token.count), token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { return false }
        let digits = token.contains { $0.isNumber }
        let lower = token.contains { $0.isLowercase }
        let upper = token.contains { $0.isUppercase }
        let marks = token.contains { $0 == "_" || $0 == "-" }
        if token.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) { return digits && lower }
        if lower && upper { return token.count <= 10 && (digits || marks) }
        return upper && !lower && digits && !marks
    }

    /// A line a bundler's chunk holds and a person's file does not: many kilobytes long where
    /// the bundler minified it, and at least this long.
    static let chunkLine = 500

    /// Whether `sample` holds what a chunk holds: a line of `chunkLine` bytes or more, or an
    /// import of another chunk whose name is hashed (`from"./vendor-9c1b4f3a.js"`).
    static func chunkContent(_ sample: SourceSample) -> Bool {
        for part in sample.parts {
            var length = 0
            for byte in part {
                length = byte == 0x0A ? 0 : length + 1
                if length >= chunkLine { return true }
            }
        }
        return importsHashedChunk(sample.head)
    }

    /// Whether `head` imports a relative module whose name is hashed.
    static func importsHashedChunk(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(4_096), as: UTF8.self)
        var rest = text[...]
        while let from = rest.range(of: "from") {
            rest = rest[from.upperBound...].drop(while: { $0 == " " })
            guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
            let specifier = rest.dropFirst().prefix(while: { $0 != quote && $0 != "\n" })
            if specifier.hasPrefix("."), let name = specifier.split(separator: "/").last, matches(name: String(name)) {
                return true
            }
        }
        return false
    }
}
