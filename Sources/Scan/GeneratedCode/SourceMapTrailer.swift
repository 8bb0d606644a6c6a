/// A source map trailer: a compiler or bundler (tsc, Babel, webpack, esbuild, Vite, a minifier)
/// ends what it writes with a comment naming the map back to its sources,
/// `//# sourceMappingURL=app.js.map` (or the older `//@`, or `/*# ... */`). Only the file's last
/// line counts: the trailer is where the tools put it, and where a browser looks for it.
enum SourceMapTrailer {
    /// How the trailer's comment begins.
    static let prefixes = ["//# sourceMappingURL=", "//@ sourceMappingURL=", "/*# sourceMappingURL="].map { Array($0.utf8) }

    /// Whether the last non-blank line of `sample` is a source map comment.
    static func matches(_ sample: SourceSample) -> Bool {
        let end = sample.end
        guard var last = end.lastIndex(where: { !isBlank($0) }) else { return false }
        let lineEnd = last + 1
        while last > end.startIndex && end[last - 1] != 0x0A { last -= 1 }
        var line = end[last..<lineEnd]
        while let first = line.first, isBlank(first) { line = line.dropFirst() }
        return prefixes.contains { line.starts(with: $0) }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
