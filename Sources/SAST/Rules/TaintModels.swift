import Documents
import PythonSyntax
import Support

/// A project's own taint sources, sanitizers and sinks (`models:` in `.sentinel.yml`), added to
/// the loaded taint rules without a rule file of its own, as CodeQL's models-as-data:
/// a source joins a source set (every rule that includes the set takes it), a sanitizer cleans
/// for the rules it names (every taint rule when it names none), a sink belongs to the rules it names.
public struct TaintModels: Sendable, Hashable {
    struct Source: Sendable, Hashable {
        var pattern: CompiledPattern
        var set: String
        var line: Int
    }

    struct Sanitizer: Sendable, Hashable {
        var pattern: CompiledPattern
        /// Rule ids; empty means every taint rule.
        var rules: [String]
        var line: Int
    }

    struct Sink: Sendable, Hashable {
        var sink: TaintSink
        var rules: [String]
        var line: Int
    }

    /// The config file the models come from, for errors.
    public private(set) var file = ""
    private(set) var sources: [Source] = []
    private(set) var sanitizers: [Sanitizer] = []
    private(set) var sinks: [Sink] = []
    /// The project's own guards, by dotted name (`myapp.auth.role_required`): a request handler
    /// they decorate, that extends them or whose body calls them authenticates, and checks its
    /// objects when the rule's ownership test is theirs too (route rules).
    public private(set) var guards: [String] = []

    /// No models.
    public init() {}

    /// Whether the config declares none.
    public var isEmpty: Bool { sources.isEmpty && sanitizers.isEmpty && sinks.isEmpty && guards.isEmpty }

    /// The most entries a config may declare: real projects name a handful.
    public static let maxEntries = 1000

    /// Parses the `models:` mapping of `file`; errors name the file, the line and the key
    /// (`models.sinks[0].rules`), and patterns are parsed as rule patterns are.
    /// - Throws: `SentinelError(.invalidInput)`.
    public static func parse(_ node: DocumentNode, file: String) throws -> TaintModels {
        let reader = DocumentReader(source: file)
        let cursor = Cursor(file: file)
        _ = try reader.mapping(node, key: "models")
        try reader.checkKeys(node, allowed: ["sources", "sanitizers", "sinks", "guards"], at: "models")
        var models = TaintModels()
        models.file = file
        let total = ["sources", "sanitizers", "sinks", "guards"].reduce(0) { $0 + (node[$1]?.elements.count ?? 0) }
        guard total <= maxEntries else { throw reader.fail(node, "models", "\(total) entries, more than the \(maxEntries) allowed") }
        func entries(_ key: String, allowed: Set<String>) throws -> [(DocumentNode, String)] {
            guard let list = node[key] else { return [] }
            guard list.isArray else { throw reader.fail(list, "models.\(key)", "must be a list") }
            return try list.elements.enumerated().map { i, entry in
                let path = "models.\(key)[\(i)]"
                _ = try reader.mapping(entry, key: path)
                try reader.checkKeys(entry, allowed: allowed, at: path)
                guard entry["pattern"] != nil else { throw reader.fail(entry, path, "needs 'pattern'") }
                return (entry, path)
            }
        }
        func ruleIds(_ entry: DocumentNode, _ path: String) throws -> [String] {
            try entry["rules"].map { try reader.stringList($0, key: "\(path).rules") } ?? []
        }
        for (entry, path) in try entries("sources", allowed: ["pattern", "set"]) {
            guard let set = try reader.string(entry["set"], key: "\(path).set") else {
                throw reader.fail(entry, path, "needs 'set' (the source set it joins, e.g. web-request)")
            }
            models.sources.append(
                Source(pattern: try cursor.pattern(entry["pattern"]!, "\(path).pattern"), set: set, line: entry.line))
        }
        for (entry, path) in try entries("sanitizers", allowed: ["pattern", "rules"]) {
            models.sanitizers.append(
                Sanitizer(
                    pattern: try cursor.pattern(entry["pattern"]!, "\(path).pattern"), rules: try ruleIds(entry, path),
                    line: entry.line))
        }
        for (entry, path) in try entries("sinks", allowed: ["pattern", "focus", "rules"]) {
            let rules = try ruleIds(entry, path)
            guard !rules.isEmpty else { throw reader.fail(entry, path, "needs 'rules' (the taint rules the sink belongs to)") }
            let focus = try reader.string(entry["focus"], key: "\(path).focus")
            if let focus, !focus.hasPrefix("$") {
                throw reader.fail(entry, "\(path).focus", "must be a metavariable of the pattern, not '\(focus)'")
            }
            let pattern = try cursor.pattern(entry["pattern"]!, "\(path).pattern")
            models.sinks.append(Sink(sink: TaintSink(pattern: pattern, focus: focus), rules: rules, line: entry.line))
        }
        if let list = node["guards"] {
            let names = try reader.stringList(list, key: "models.guards")
            for (i, name) in names.enumerated() {
                let parts = name.split(separator: ".", omittingEmptySubsequences: false)
                guard !parts.isEmpty,
                    parts.allSatisfy({ part in
                        !part.isEmpty && part.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
                    })
                else {
                    throw reader.fail(list, "models.guards[\(i)]", "'\(name)' is not a dotted name (myapp.auth.role_required)")
                }
            }
            models.guards = names
        }
        return models
    }
}

extension RuleSet {
    /// The rules with `models` added: each source to the rules that include its set (remote, or
    /// local when the set's sources are), each sanitizer and sink to the rules it names.
    /// - Throws: `SentinelError(.invalidInput)` naming the config file, line and key when a model
    ///   names a set or a taint rule that is not loaded.
    public func applying(_ models: TaintModels) throws -> RuleSet {
        guard !models.isEmpty else { return self }
        let taintIds = Set(rules.filter(\.isTaint).map(\.id))
        let reader = DocumentReader(source: models.file)
        for (i, source) in models.sources.enumerated() where library.sources[source.set] == nil {
            let known = library.sources.keys.sorted().joined(separator: ", ")
            throw reader.fail(source.line, "models.sources[\(i)].set", "no source set '\(source.set)' (known: \(known))")
        }
        let named =
            models.sanitizers.enumerated().map { ("sanitizers", $0.offset, $0.element.rules, $0.element.line) }
            + models.sinks.enumerated().map { ("sinks", $0.offset, $0.element.rules, $0.element.line) }
        for (key, i, ids, line) in named {
            for id in ids where !taintIds.contains(id) {
                throw reader.fail(line, "models.\(key)[\(i)].rules", "no taint rule '\(id)'")
            }
        }
        var copy = self
        // The models' sanitizers change what most rules have: counted anew over the rules read
        // (the scan leaves no taint rule unread where models apply).
        copy.sharedSanitizers = nil
        for index in copy.rules.indices {
            guard case .taint(var spec) = copy.rules[index].mode else { continue }
            let id = copy.rules[index].id
            for source in models.sources where spec.sourceSets.contains(source.set) {
                let isLocal = library.sources[source.set]?.allSatisfy(\.isLocal) ?? false
                let isLibrary = library.sources[source.set]?.allSatisfy(\.isLibrary) ?? false
                spec.sources.append(TaintSource(pattern: source.pattern, isLocal: isLocal, isLibrary: isLibrary))
            }
            spec.sanitizers += models.sanitizers.filter { $0.rules.isEmpty || $0.rules.contains(id) }.map(\.pattern)
            spec.sinks += models.sinks.filter { $0.rules.contains(id) }.map(\.sink)
            copy.rules[index].mode = .taint(spec)
        }
        return copy
    }
}
