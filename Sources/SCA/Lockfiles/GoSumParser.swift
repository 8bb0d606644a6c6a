/// `go.sum`: `module version[/go.mod] hash` lines; a module's `/go.mod` line and its content
/// line collapse into one entry at the first line. go.sum has no graph, so entries are not
/// marked direct or transitive beyond the default.
public struct GoSumParser: LockfileParser {
    /// The format name results carry.
    public static let format = "go.sum"
    /// File names this parser reads.
    public static let fileNames = ["go.sum"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        var result = LockfileResult(file: file, format: Self.format)
        var contentSeen = Set<String>()
        var positions: [String: Int] = [:]
        // The go command splits go.sum at `\n` and each line with `strings.Fields` (Unicode space).
        for line in TextLines.lineFeedLines(bytes) {
            let words = line.text.split(whereSeparator: \.isWhitespace).map { ArraySlice(Array($0.utf8)) }
            if words.isEmpty { continue }
            guard words.count == 3 else { throw malformed(file, line.number, "expected 'module version hash'") }
            let module = String(decoding: words[0], as: UTF8.self)
            var version = String(decoding: words[1], as: UTF8.self)
            let goModOnly = version.hasSuffix("/go.mod")
            if goModOnly { version.removeLast("/go.mod".count) }
            guard version.hasPrefix("v"), words[2].hasPrefix("h1:") || words[2].contains(UInt8(ascii: ":")) else {
                throw malformed(file, line.number, "expected a v-version and a hash")
            }
            let key = module + "@" + version
            if !goModOnly { contentSeen.insert(key) }
            if positions[key] != nil { continue }
            positions[key] = result.dependencies.count
            result.dependencies.append(
                Dependency(ecosystem: .go, name: module, version: version, file: file, line: line.number))
        }
        // Only modules whose code was needed have a content hash; mark the rest.
        for index in result.dependencies.indices {
            let dependency = result.dependencies[index]
            if !contentSeen.contains(dependency.name + "@" + (dependency.version ?? "")) {
                result.dependencies[index].notes["goModOnly"] = "true"
            }
        }
        return result
    }
}
