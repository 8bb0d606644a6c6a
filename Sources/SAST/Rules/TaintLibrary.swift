import Support

/// Named source and sanitizer sets, defined once (a file with `set: NAME`, rules/README.md) and
/// included by taint rules (`- include: web-request`), so every rule takes the same framework
/// knowledge and a source added to a set reaches every rule that includes it.
public struct TaintLibrary: Sendable, Hashable {
    /// Source sets by name.
    private(set) var sources: [String: [TaintSource]] = [:]
    /// Sanitizer sets by name.
    private(set) var sanitizers: [String: [CompiledPattern]] = [:]
    /// The file that defines each set, for errors.
    private(set) var files: [String: String] = [:]
    /// The syntax each set's patterns are written in (its `languages`): a rule includes only sets of its own.
    private(set) var syntaxes: [String: PatternSyntax] = [:]

    /// An empty library.
    public init() {}

    /// Every set's name, sorted.
    public var names: [String] { files.keys.sorted() }

    /// Adds `set`; a name defined twice is an error naming both files.
    mutating func add(_ set: TaintPatternSet) throws {
        if let other = files[set.name] {
            throw SentinelError(.invalidInput, "\(set.file): duplicate set '\(set.name)' (also in \(other))")
        }
        files[set.name] = set.file
        syntaxes[set.name] = set.syntax
        switch set.content {
        case .sources(let list): sources[set.name] = list
        case .sanitizers(let list): sanitizers[set.name] = list
        }
    }
}

/// One set file's contents: a name and its sources or its sanitizers.
struct TaintPatternSet: Sendable {
    enum Content: Sendable {
        case sources([TaintSource])
        case sanitizers([CompiledPattern])
    }

    var name: String
    var file: String
    var content: Content
    /// The syntax of its patterns (`languages`, Python by default).
    var syntax: PatternSyntax

    static let keys: Set<String> = ["set", "languages", "sources", "sanitizers"]

    /// Parses a set file's mapping (it has `set:`). Not `compiling`: its name and syntax only,
    /// no member (no rule that could include it is compiled; ``RuleSet/compile(_:present:optionalDirectories:)``).
    init(_ map: Mapping, _ c: Cursor, compiling: Bool = true) throws {
        var c = c
        let file = c.file
        for key in map.keys where !Self.keys.contains(key) {
            throw RuleLoader.fail(file, map.line(key), "unknown key '\(key)' in a set (expected set, languages, sources or sanitizers)")
        }
        name = try c.string(map["set"]!, "set")
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw RuleLoader.fail(file, map.line("set"), "bad set name '\(name)' (lowercase letters, digits and '-')")
        }
        self.file = file
        let languages = try map["languages"].map { try c.strings($0, "languages") } ?? ["python"]
        syntax = try RuleLoader.patternSyntax(of: languages, map, c)
        c.syntax = syntax
        switch (map["sources"], map["sanitizers"]) {
        case (let node?, nil): content = .sources(compiling ? try c.sources(node) : [])
        case (nil, let node?): content = .sanitizers(compiling ? try c.sanitizers(node) : [])
        default: throw RuleLoader.fail(file, "a set needs exactly one of 'sources' and 'sanitizers'")
        }
    }
}
