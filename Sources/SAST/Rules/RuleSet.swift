import Documents
import Findings
import Foundation
import Synchronization
import PythonSyntax
import Support

/// The rules a scan applies, loaded once and shared by every file.
public struct RuleSet: Sendable {
    /// The Python rules, sorted by id.
    public var rules: [Rule]
    /// The template rules (`languages: [template]`), sorted by id.
    public var templateRules: [TemplateRule]
    /// The route rules (`mode: route`), sorted by id.
    public var routeRules: [RouteRule]

    /// The source and sanitizer sets the rules were loaded with (models extend them).
    public var library: TaintLibrary
    /// The shipped rules left unread because no file of the tree holds the identifiers they need
    /// (``RuleIndex``): they find nothing there, but their descriptors and Bandit/Semgrep
    /// equivalents are still part of the output, as when they are compiled.
    public var unloaded: [RuleIndex.Header]
    /// The sanitizers the rule-free summaries apply, counted over the taint rules read and those
    /// left unread (``compile(_:present:optionalDirectories:tree:leavingTaintRules:)``); nil: over
    /// the rules read (``TaintPatterns/sharedSanitizers(_:)``), as when none was left unread.
    public internal(set) var sharedSanitizers: [CompiledPattern]? = nil

    /// Wraps already-parsed rules; duplicate ids are rejected.
    public init(
        rules: [Rule], templateRules: [TemplateRule] = [], routeRules: [RouteRule] = [],
        library: TaintLibrary = TaintLibrary(), unloaded: [RuleIndex.Header] = []
    ) throws {
        var seen: [String: String] = [:]
        let all =
            rules.map { ($0.id, $0.file) } + templateRules.map { ($0.id, $0.file) } + routeRules.map { ($0.id, $0.file) }
            + unloaded.map { ($0.id, "the rule index's \($0.id)") }
        for (id, file) in all {
            if let other = seen[id] {
                throw SentinelError(.invalidInput, "\(file): duplicate rule id '\(id)' (also in \(other))")
            }
            seen[id] = file
        }
        self.rules = rules.sorted { $0.id < $1.id }
        self.templateRules = templateRules.sorted { $0.id < $1.id }
        self.routeRules = routeRules.sorted { $0.id < $1.id }
        self.library = library
        self.unloaded = unloaded.sorted { $0.id < $1.id }
    }

    /// Loads every `*.yaml`/`*.yml` file under `directories`, recursively: the source and
    /// sanitizer sets (`set:` files) first, then the rules, which may include any of them.
    /// `setsFrom`: more directories whose sets (not rules) the rules may include (the shipped
    /// sets, for testing a project's own rule directory alone).
    /// - Throws: `SentinelError` naming the first bad file.
    public static func load(directories: [String], setsFrom: [String] = []) throws -> RuleSet {
        try compile(try read(directories: directories, setsFrom: setsFrom))
    }

    /// Reads and parses (as YAML) every rule and set file under `directories` and the sets under
    /// `setsFrom`, as ``load(directories:setsFrom:)`` does, without compiling a pattern: what a
    /// scan can do before it knows which languages the tree holds.
    /// - Throws: `SentinelError` naming the first bad file.
    /// `indexed`: directories (the shipped rules) whose ``RuleIndex`` is used: a rule file it
    /// describes (same SHA-256) is kept as bytes, parsed only if ``compile(_:present:optionalDirectories:tree:)``
    /// needs it; every other file is parsed here.
    /// `trees`: where the patterns' trees are kept (a new ``PatternTrees`` over the indexed
    /// directories' ``RulePack`` by default).
    static func read(directories: [String], setsFrom: [String] = [], indexed: Set<String> = [], trees: PatternTrees?)
        throws -> RuleDocuments
    {
        let ruleDirectories = Set(directories.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let setDirectories = setsFrom.filter { !ruleDirectories.contains(URL(fileURLWithPath: $0).standardizedFileURL.path) }
        var found: [(file: String, directory: String, setOnly: Bool)] = []
        for directory in directories { found += try ruleFiles(under: directory).map { ($0, directory, false) } }
        for directory in setDirectories { found += try ruleFiles(under: directory).map { ($0, directory, true) } }
        let origins = found
        var indexes: [String: [String: RuleIndex.Entry]] = [:]
        var packs: [String: RulePack] = [:]
        for directory in Set(directories).intersection(indexed) {
            indexes[directory] = RuleIndex.load(directory: directory)?.byPath
            // A pack counts only beside an index: a document is taken for a file the index describes.
            if indexes[directory] != nil { packs[directory] = RulePack.load(directory: directory) }
        }
        let entries = indexes
        let packed = packs
        // Files are read and parsed on one large-stack thread per processor; the first bad file in
        // order is the error.
        let read = try inParallel(origins.count) {
            i -> (root: DocumentNode?, bytes: [UInt8], entry: RuleIndex.Entry?, indexedSet: Bool) in
            // A rule directory may be the scanned repository's own: no link is followed.
            let bytes = [UInt8](try BoundedFile.read(origins[i].file, limit: maxRuleFileSize, followLinks: false))
            let entry =
                origins[i].setOnly
                ? nil : entries[origins[i].directory].flatMap({ $0[relative(origins[i].file, to: origins[i].directory)] })
            let described = entry?.describes(bytes) == true
            if let entry, !entry.isSet, described { return (nil, bytes, entry, false) }
            let fromPack = described ? entry.flatMap { packed[origins[i].directory]?.document(sha256: $0.sha256) } : nil
            let root = try fromPack ?? RuleLoader.document(String(decoding: bytes, as: UTF8.self), file: origins[i].file)
            return (root, [], nil, entry?.isSet == true && described)
        }
        return RuleDocuments(
            trees: trees ?? PatternTrees(pack: directories.lazy.compactMap { packed[$0] }.first), packs: packed,
            files: origins.indices.map {
                RuleDocuments.File(
                    path: origins[$0].file, directory: origins[$0].directory, parsed: read[$0].root, bytes: read[$0].bytes,
                    indexed: read[$0].entry, setOnly: origins[$0].setOnly, indexedSet: read[$0].indexedSet)
            })
    }

    /// Reads and parses every rule and set file (``read(directories:setsFrom:indexed:trees:)``).
    /// - Throws: `SentinelError` naming the first bad file.
    public static func read(directories: [String], setsFrom: [String] = [], indexed: Set<String> = []) throws -> RuleDocuments {
        try read(directories: directories, setsFrom: setsFrom, indexed: indexed, trees: nil)
    }

    /// `file`'s path below `directory` (both as ``ruleFiles(under:)`` spells them).
    static func relative(_ file: String, to directory: String) -> String {
        let base = URL(fileURLWithPath: directory).path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
    }

    /// The name ``compile(_:present:optionalDirectories:)`` knows template files by in `present`
    /// (template rules say `languages: [template]`).
    public static let templateLanguage = TemplateRuleLoader.language

    /// Compiles the rules and sets ``read(directories:setsFrom:)`` read. With `present`, the
    /// rules and sets of `optionalDirectories` (the shipped rules: their own tests check every
    /// one) whose languages are all absent from `present` (pattern syntaxes such as `python`
    /// and `javascript`, and `template`) are not compiled: a scan of a Python tree compiles no
    /// JavaScript pattern. Every other file is compiled in full, so a bad rule of one's own is
    /// an error whatever the tree holds. With `tree` (the identifiers and texts of the tree's files,
    /// ``SASTEngine/contents(of:project:read:budget:)``), a rule of `optionalDirectories` that its
    /// ``RuleIndex`` entry says needs identifiers or text no file holds is not read either: it is
    /// listed in ``unloaded``.
    /// - Throws: `SentinelError` naming the first bad file.
    /// `leavingTaintRules`: whether a taint rule whose sinks no file holds may be left unread too
    /// (not when the project's models extend the rules, which counts their sanitizers anew).
    public static func compile(
        _ documents: RuleDocuments, present: Set<String>? = nil, optionalDirectories: Set<String> = [],
        tree: TreeContents? = nil, leavingTaintRules: Bool = true
    ) throws -> RuleSet {
        var files = documents.files
        let byLanguage = files.map { file in
            guard let present, optionalDirectories.contains(file.directory) else { return true }
            if let entry = file.indexed { return RuleLoader.mayApply(languages: entry.languages, toAnyOf: present) }
            return file.parsed.map { RuleLoader.mayApply($0, toAnyOf: present) } ?? true
        }
        // A taint rule's entry names the sanitizers of the sets it includes as indexed: it counts
        // only while every set file is the one indexed (an operator's own set, or an edited one,
        // and every taint rule is read).
        let setsIndexed = leavingTaintRules && files.allSatisfy { $0.parsed?["set"] == nil || $0.indexedSet }
        // A rule whose identifiers no file holds can match nowhere: its header is all it gives.
        var unmatched = files.indices.filter { i in
            guard byLanguage[i], let tree, optionalDirectories.contains(files[i].directory), let entry = files[i].indexed,
                entry.header != nil, entry.taint == nil || setsIndexed
            else { return false }
            return !entry.mayMatch(tree)
        }
        var compiled = byLanguage
        for i in unmatched { compiled[i] = false }
        var set = try compileFiles(&files, needed: compiled, documents)
        // The sanitizers most taint rules have are counted over every taint rule the tree's
        // languages bring, read or not, so that leaving one unread changes no other's result.
        var shared: [CompiledPattern]? = nil
        let unreadTaint = unmatched.filter { files[$0].indexed?.taint != nil }
        if !unreadTaint.isEmpty {
            var census = set.rules.compactMap { rule -> (id: String, sanitizers: [String])? in
                guard case .taint(let spec) = rule.mode else { return nil }
                return (rule.id, spec.sanitizers.map(\.source))
            }
            for i in unreadTaint {
                if let entry = files[i].indexed, let header = entry.header, let taint = entry.taint {
                    census.append((header.id, taint.sanitizers))
                }
            }
            census.sort { $0.id < $1.id }
            let texts = TaintPatterns.sharedSanitizerTexts(census.map(\.sanitizers))
            // Each shared sanitizer compiled as `sharedSanitizers(_:)` takes it: from the first rule
            // (by id) that has it. When that rule is unread, from a set it includes, else the rule
            // is read after all.
            var holders: [String: String] = [:]
            for text in texts { holders[text] = census.first { $0.sanitizers.contains(text) }?.id }
            // (Ids are unique, or the rule set is refused below; the first wins meanwhile.)
            let unreadIds = Dictionary(
                unreadTaint.compactMap { i in files[i].indexed?.header.map { ($0.id, i) } }, uniquingKeysWith: { first, _ in first })
            var fromSets: [String: CompiledPattern] = [:]
            for text in texts {
                guard let holder = holders[text], let i = unreadIds[holder], let taint = files[i].indexed?.taint else { continue }
                for name in taint.sanitizerSets {
                    if let member = set.library.sanitizers[name]?.first(where: { $0.source == text }) {
                        fromSets[text] = member
                        break
                    }
                }
            }
            let needed = Array(Set(texts.compactMap { text in fromSets[text] == nil ? holders[text].flatMap { unreadIds[$0] } : nil }))
                .sorted()
            if !needed.isEmpty {
                unmatched.removeAll { needed.contains($0) }
                try parse(&files, needed, documents)
                set.rules += try loadRules(files, needed, library: set.library, trees: documents.trees).rules
            }
            let byId = Dictionary(set.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            shared = texts.compactMap { text in
                if let member = fromSets[text] { return member }
                guard let holder = holders[text], case .taint(let spec)? = byId[holder]?.mode else { return nil }
                return spec.sanitizers.first { $0.source == text }
            }
        }
        let unloaded = unmatched.compactMap { files[$0].indexed?.header }
        var rules = try RuleSet(
            rules: set.rules, templateRules: set.templateRules, routeRules: set.routeRules, library: set.library, unloaded: unloaded)
        rules.sharedSanitizers = shared
        return rules
    }

    /// What some files compile to: rules by kind and the sets.
    private typealias Compiled = (rules: [Rule], templateRules: [TemplateRule], routeRules: [RouteRule], library: TaintLibrary)

    /// The rules, templates, routes and sets of the `needed` files, parsing those still bytes.
    private static func compileFiles(_ files: inout [RuleDocuments.File], needed: [Bool], _ documents: RuleDocuments) throws
        -> Compiled
    {
        try parse(&files, files.indices.filter { needed[$0] }, documents)
        let roots = files
        let trees = documents.trees
        let sets = try inParallel(files.count) { i -> TaintPatternSet? in
            guard let root = roots[i].parsed else { return nil }
            return try RuleLoader.set(root, file: roots[i].path, compiling: needed[i], trees: trees)
        }
        var library = TaintLibrary()
        for case let set? in sets { try library.add(set) }
        let loaded = try loadRules(
            files, files.indices.filter { sets[$0] == nil && !files[$0].setOnly && needed[$0] }, library: library, trees: trees)
        return (loaded.rules, loaded.templateRules, loaded.routeRules, library)
    }

    /// Parses the files of `indices` left as bytes by the index (taking their documents from
    /// their directory's ``RulePack`` when it has them).
    private static func parse(_ files: inout [RuleDocuments.File], _ indices: [Int], _ documents: RuleDocuments) throws {
        let unparsed = indices.filter { files[$0].parsed == nil }
        let unread = files
        let packs = documents.packs
        let parsed = try inParallel(unparsed.count) { i in
            let file = unread[unparsed[i]]
            if let entry = file.indexed, let root = packs[file.directory]?.document(sha256: entry.sha256) { return root }
            return try RuleLoader.document(String(decoding: file.bytes, as: UTF8.self), file: file.path)
        }
        for (i, root) in zip(unparsed, parsed) { files[i].parsed = root }
    }

    /// The rules of the parsed rule files at `indices`, with `library`'s sets.
    private static func loadRules(_ files: [RuleDocuments.File], _ indices: [Int], library: TaintLibrary, trees: PatternTrees)
        throws -> Compiled
    {
        let loaded = try inParallel(indices.count) { i in
            // A file the index describes compiled in full when the index was made.
            try RuleLoader.parseAny(
                files[indices[i]].parsed!, file: files[indices[i]].path, library: library, checked: files[indices[i]].indexed != nil,
                trees: trees)
        }
        var rules: [Rule] = []
        var templateRules: [TemplateRule] = []
        var routeRules: [RouteRule] = []
        for rule in loaded {
            switch rule {
            case .python(let rule): rules.append(rule)
            case .template(let rule): templateRules.append(rule)
            case .route(let rule): routeRules.append(rule)
            }
        }
        return (rules, templateRules, routeRules, library)
    }

    /// `body(0..<count)` on large-stack threads, results in order; the first error in order is thrown.
    private static func inParallel<T: Sendable>(_ count: Int, _ body: @Sendable @escaping (Int) throws -> T) throws -> [T] {
        let results = Mutex<[Result<T, any Error>?]>(Array(repeating: nil, count: count))
        LargeStack.concurrentPerform(iterations: count) { i in
            let result = Result { try body(i) }
            results.withLock { $0[i] = result }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }

    /// Larger rule files are refused unread: the largest shipped one is a few kilobytes.
    static let maxRuleFileSize = 4 << 20

    /// Rule files under `directory`, sorted so errors and ordering are reproducible. A symbolic
    /// link inside it is an error, not a way out of the directory (it may be a repository's).
    static func ruleFiles(under directory: String) throws -> [String] {
        // The directory named is opened following links (the operator or a config named it); below
        // it, each directory is listed through its descriptor and nothing is followed.
        let top: DirectoryDescriptor
        do throws(Errno) {
            top = try DirectoryDescriptor.workingDirectory.openDirectory(directory, followingLinks: true)
        } catch {
            if error.rawValue == ENOENT || error.rawValue == ENOTDIR {
                throw SentinelError(.invalidInput, "\(directory): no such rule directory")
            }
            throw SentinelError(.io, "\(directory): cannot list rule directory: \(error)", errno: error)
        }
        // Paths as the callers always saw them: absolute, the directory as named, no `..` resolved.
        let base = URL(fileURLWithPath: directory).path
        var files: [String] = []
        var pending: [(DirectoryDescriptor, path: String, depth: Int)] = [(top, base, 0)]
        while let (directory, path, depth) = pending.popLast() {
            let entries: [DirectoryDescriptor.Entry]
            do throws(Errno) { entries = try directory.entries() } catch {
                throw SentinelError(.io, "\(path): cannot list rule directory: \(error)", errno: error)
            }
            for entry in entries {
                let child = path.hasSuffix("/") ? path + entry.text : path + "/" + entry.text
                var type = Int32(entry.type)
                if type == Int32(DT_UNKNOWN), let info = try? directory.status(of: entry.name) {
                    type = Int32(DirectoryDescriptor.Entry.type(ofMode: info.st_mode))
                }
                switch type {
                case Int32(DT_LNK):
                    throw SentinelError(
                        .invalidInput, "\(child): is a symbolic link; rule directories are read without following links")
                case Int32(DT_DIR):
                    guard depth < maxRuleDirectoryDepth else {
                        throw SentinelError(.invalidInput, "\(child): rule directories nest deeper than \(maxRuleDirectoryDepth)")
                    }
                    do throws(Errno) {
                        pending.append((try directory.openDirectory(entry.name), child, depth + 1))
                    } catch {
                        throw SentinelError(.io, "\(child): cannot list rule directory: \(error)", errno: error)
                    }
                default:
                    let name = entry.text
                    // `x.yaml` and `.x.yaml`, not a bare `.yaml` (no extension, as URL sees it).
                    if (name.hasSuffix(".yaml") && name != ".yaml") || (name.hasSuffix(".yml") && name != ".yml") {
                        files.append(child)
                    }
                }
            }
        }
        return files.sorted()
    }

    /// How deep rule directories may nest (the shipped ones are two levels deep).
    static let maxRuleDirectoryDepth = 32

    /// The rules of either kind that apply only in some projects (``ProjectScope``).
    public var scopedRules: [ScopedRule] {
        rules.filter { !$0.scope.isEverywhere }.map { ScopedRule(id: $0.id, scope: $0.scope) }
            + templateRules.filter { !$0.scope.isEverywhere }.map { ScopedRule(id: $0.id, scope: $0.scope) }
    }

    /// Which rules cover which Bandit tests and Semgrep rules (`metadata.bandit`/`semgrep`).
    public var equivalence: RuleEquivalence {
        var table = RuleEquivalence()
        // The rules left unread in among the others by id, as a full load lists them.
        let read = rules.map { RuleIndex.Header(id: $0.id, descriptor: $0.descriptor, bandit: $0.banditIds, semgrep: $0.semgrepIds) }
        let all =
            (read + unloaded).sorted { $0.id < $1.id }.map { ($0.id, $0.bandit, $0.semgrep) }
            + templateRules.map { ($0.id, $0.banditIds, $0.semgrepIds) }
        for (id, bandit, semgrep) in all {
            table.add(nativeRule: id, checkIds: bandit, of: ToolName.bandit)
            table.add(nativeRule: id, checkIds: semgrep, of: ToolName.semgrep)
        }
        return table
    }

    /// SARIF metadata of every rule.
    public var descriptors: [RuleDescriptor] {
        // The rules left unread in among the others by id, as a full load lists them.
        (rules.map { ($0.id, $0.descriptor) } + unloaded.map { ($0.id, $0.descriptor) }).sorted { $0.0 < $1.0 }.map(\.1)
            + templateRules.map(\.descriptor) + routeRules.map(\.descriptor)
    }
}

/// Rule and set files read and parsed as YAML, not yet compiled (``RuleSet/read(directories:setsFrom:)``).
public struct RuleDocuments: Sendable {
    /// One file: where it lies, the directory it was found under and its YAML.
    public struct File: Sendable {
        /// The file's path.
        public var path: String
        /// The directory named to `read` that holds it.
        public var directory: String
        /// The file's YAML document; nil while only its bytes are read (`indexed`).
        var parsed: DocumentNode?
        /// The file's bytes when it is not parsed yet, else empty.
        var bytes: [UInt8]
        /// Its entry in its directory's ``RuleIndex``, when that describes these bytes.
        var indexed: RuleIndex.Entry?
        /// Found under a `setsFrom` directory: only its set (if it is one) is used.
        var setOnly: Bool
        /// A set file its directory's ``RuleIndex`` describes (same SHA-256).
        var indexedSet = false
    }

    /// The patterns' trees, kept for every compilation of these documents.
    let trees: PatternTrees
    /// The ``RulePack`` of each indexed directory that has one.
    let packs: [String: RulePack]
    /// The files in the order errors are reported.
    public var files: [File]

    /// How many rule files the index lets ``RuleSet/compile(_:present:optionalDirectories:tree:)``
    /// leave unread depending on the tree's identifiers.
    public var skippableCount: Int { files.count { $0.indexed?.header != nil } }
}
