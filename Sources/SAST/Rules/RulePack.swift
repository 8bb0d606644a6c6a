import Digest
import Documents
import Foundation
import Support
import Synchronization
import SyntaxTree

/// The shipped rules as this build reads them, kept beside them so that a scan need not: each
/// rule file's YAML as a document (by the SHA-256 of its bytes) and each pattern's tree (by its
/// syntax and text). Reading the YAML and parsing and lowering the patterns were a quarter of a
/// small project's scan (issue 77); decoding the pack costs a fraction of that.
///
/// Written by `sentinel rules compile` (`make` runs it after building, as Python installs compile
/// `.pyc` files) into ``fileName(buildID:)``: the name and the header carry the writer's build ID,
/// so a build only ever reads the trees its own parsers made, and two builds side by side keep
/// a pack each. A pack is trusted as the rules it sits beside are; one that is missing, of
/// another build, cut or damaged is not used, and the scan reads the YAML and lowers the
/// patterns as without it: slower, never different. Documents count only for a file whose bytes
/// still have the digest, patterns only for the same text.
public struct RulePack: Sendable {
    private static let magic = Array("SENTINEL-RULEPACK-1\n".utf8)
    private static let prefix = "compiled-"
    private static let suffix = ".pack"
    /// Packs kept in a rule directory: a few builds (a benchmark against an older one, an upgrade).
    static let maximumKept = 4
    /// The largest pack read (the shipped rules' is about a megabyte).
    static let maximumSize = 64 << 20

    private let bytes: [UInt8]
    // Keys are compared byte for byte on every hit (``Entry``): Swift's `==` on strings is
    // canonical equivalence (a Kelvin sign is a `K`), and patterns and expressions compare code points.
    private let documents: [String: Entry]
    private let patterns: [String: Entry]
    private let regexes: [String: Entry]

    /// A table's entry: its key as written and where its value lies.
    private struct Entry: Sendable {
        let key: String
        let range: Range<Int>

        /// The value's range when `key` is this entry's key byte for byte.
        func range(for key: String) -> Range<Int>? { self.key.utf8.elementsEqual(key.utf8) ? range : nil }
    }

    /// The pack's file name for a build (`compiled-` and 40 hex digits), nil without a build ID.
    static func fileName(buildID: [UInt8]? = BuildID.current) -> String? {
        guard let buildID, !buildID.isEmpty else { return nil }
        return prefix + Hex.lowercase(buildID.prefix(20)) + suffix
    }

    /// The key of a pattern: its syntax's name, a NUL, its text.
    private static func key(syntax: String, text: String) -> String { syntax + "\u{0}" + text }

    /// The pack of `directory` written by this build, nil when there is none it can use.
    static func load(directory: String, buildID: [UInt8]? = BuildID.current) -> RulePack? {
        guard let name = fileName(buildID: buildID), let buildID else { return nil }
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        guard let data = try? BoundedFile.read(path, limit: maximumSize, followLinks: false) else { return nil }
        return try? RulePack(bytes: [UInt8](data), buildID: buildID)
    }

    /// Reads the header and the table of contents; the trees are decoded when asked for.
    init(bytes: [UInt8], buildID: [UInt8]) throws(PackedReader.Damaged) {
        var reader = PackedReader(bytes)
        // The digest of the body: a pack damaged on disk would otherwise decode to other trees.
        guard try reader.raw(Self.magic.count).elementsEqual(Self.magic), bytes[try reader.run()].elementsEqual(buildID)
        else { throw PackedReader.Damaged() }
        let digest = try reader.raw(32)
        guard digest.elementsEqual(SHA256.hash(bytes[reader.position..<reader.end])) else { throw PackedReader.Damaged() }
        func table(_ reader: inout PackedReader) throws(PackedReader.Damaged) -> [String: Entry] {
            let count = try reader.int()
            guard count <= (reader.end - reader.position) / 2 else { throw PackedReader.Damaged() }
            var table: [String: Entry] = [:]
            table.reserveCapacity(count)
            for _ in 0..<count {
                let key = try reader.string()
                // Two keys equal only canonically: the first is kept, the other is never found.
                let entry = Entry(key: key, range: try reader.run())
                if table[key] == nil { table[key] = entry }
            }
            return table
        }
        documents = try table(&reader)
        patterns = try table(&reader)
        regexes = try table(&reader)
        guard reader.atEnd else { throw PackedReader.Damaged() }
        self.bytes = bytes
    }

    /// The document of a rule file whose bytes have SHA-256 `sha256` (64 lowercase hex digits).
    func document(sha256: String) -> DocumentNode? {
        guard let range = documents[sha256]?.range(for: sha256) else { return nil }
        var reader = PackedReader(bytes, range: range)
        guard let node = try? DocumentNode(packed: &reader), reader.atEnd else { return nil }
        return node
    }

    /// The tree of pattern `text` in `syntax`.
    func pattern(syntax: String, text: String) -> SyntaxNode? {
        let key = Self.key(syntax: syntax, text: text)
        guard let range = patterns[key]?.range(for: key) else { return nil }
        var reader = PackedReader(bytes, range: range)
        guard let node = try? SyntaxNode(packed: &reader), reader.atEnd else { return nil }
        return node
    }

    /// The literal requirement (``RegexLiterals``) of the expression `pattern` in ICU's spelling.
    func literals(ofRegex pattern: String) -> RegexLiterals? {
        guard let range = regexes[pattern]?.range(for: pattern) else { return nil }
        var reader = PackedReader(bytes, range: range)
        guard let literals = try? RegexLiterals(packed: &reader), reader.atEnd else { return nil }
        return literals
    }

    /// The pack of the rule and set files under `directory` for `buildID`: every file's
    /// document, the tree of every pattern their rules and sets lower when all are compiled, and
    /// the literals of every regular expression they hold.
    /// - Throws: `SentinelError` naming the first bad rule file.
    static func generate(directory: String, buildID: [UInt8]) throws -> [UInt8] {
        var documents: [String: DocumentNode] = [:]
        for file in try RuleSet.ruleFiles(under: directory) {
            let bytes = [UInt8](try BoundedFile.read(file, limit: RuleSet.maxRuleFileSize, followLinks: false))
            documents[RuleIndex.digest(bytes)] = try RuleLoader.document(String(decoding: bytes, as: UTF8.self), file: file)
        }
        let trees = PatternTrees(pack: nil)
        _ = try RuleSet.compile(try RuleSet.read(directories: [directory], trees: trees))
        var writer = PackedWriter()
        writer.int(documents.count)
        for (digest, node) in documents.sorted(by: { $0.key < $1.key }) {
            writer.string(digest)
            var entry = PackedWriter()
            node.pack(into: &entry)
            writer.run(entry.bytes)
        }
        let lowered = trees.trees
        writer.int(lowered.count)
        for (syntax, text, node) in lowered {
            writer.string(key(syntax: syntax, text: text))
            var entry = PackedWriter()
            node.pack(into: &entry)
            writer.run(entry.bytes)
        }
        let expressions = trees.regexes
        writer.int(expressions.count)
        for (pattern, literals) in expressions {
            writer.string(pattern)
            var entry = PackedWriter()
            literals.pack(into: &entry)
            writer.run(entry.bytes)
        }
        var pack = PackedWriter()
        pack.raw(magic)
        pack.run(buildID)
        pack.raw(SHA256.hash(writer.bytes))
        pack.raw(writer.bytes)
        return pack.bytes
    }

    /// Writes this build's pack into `directory` and removes the packs beyond the newest
    /// ``maximumKept``; returns the path written.
    /// - Throws: `SentinelError` for a bad rule file or a pack that cannot be written.
    public static func write(directory: String) throws -> String {
        guard let buildID = BuildID.current, let name = fileName(buildID: buildID) else {
            throw SentinelError(.unsupported, "this build has no build ID; a rule pack needs one")
        }
        let bytes = try generate(directory: directory, buildID: buildID)
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        try PreparedOutputFile(path: path).write(Data(bytes))
        removeOlderPacks(in: directory, keeping: name)
        return path
    }

    /// Removes the packs of `directory` beyond the newest ``maximumKept`` (never `keeping`).
    /// Failures are ignored: an old pack is only unused bytes.
    private static func removeOlderPacks(in directory: String, keeping: String) {
        guard let parent = try? DirectoryDescriptor.workingDirectory.openDirectory(directory),
            let entries = try? parent.entries()
        else { return }
        let packs = entries.compactMap { entry -> (name: String, seconds: Int, nanoseconds: Int)? in
            let name = entry.text
            guard name.hasPrefix(prefix), name.hasSuffix(suffix), name != keeping,
                let info = try? parent.status(of: entry.name), info.st_mode & S_IFMT == S_IFREG
            else { return nil }
            return (name, info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
        }
        let newestFirst = packs.sorted { ($0.seconds, $0.nanoseconds, $0.name) > ($1.seconds, $1.nanoseconds, $1.name) }
        for pack in newestFirst.dropFirst(maximumKept - 1) { try? parent.remove(pack.name) }
    }
}

/// The trees of the patterns one loading of rules lowers, by syntax and text: each text is
/// lowered once however many rules and sets hold it (14 % of the shipped rules' pattern texts
/// repeat), or taken from the ``RulePack`` when it has it.
final class PatternTrees: Sendable {
    private let pack: RulePack?
    // By syntax, then text; a hit counts only for the same bytes (see ``RulePack``'s keys).
    private let memo = Mutex<[String: [String: (text: String, tree: SyntaxNode)]]>([:])
    private let lowered = Atomic<Int>(0)
    private let expressions = Mutex<[String: PreparedRegex]>([:])

    init(pack: RulePack?) { self.pack = pack }

    /// The tree of `text` in `syntax`, lowered at most once.
    /// - Throws: ``SourceReadError`` from the syntax's front end.
    func tree(_ text: String, syntax: PatternSyntax) throws(SourceReadError) -> SyntaxNode {
        if let known = memo.withLock({ $0[syntax.name]?[text] }), known.text.utf8.elementsEqual(text.utf8) { return known.tree }
        let tree: SyntaxNode
        if let packed = pack?.pattern(syntax: syntax.name, text: text) {
            tree = packed
        } else {
            tree = try syntax.lower(text)
            lowered.add(1, ordering: .relaxed)
        }
        memo.withLock { memo in
            if memo[syntax.name]?[text] == nil { memo[syntax.name, default: [:]][text] = (text, tree) }
        }
        return tree
    }

    /// The expression `source` prepared once however many rules hold it (its compiled form and
    /// its literals shared), with its literals from the pack. An expression not `checked` before
    /// is compiled here, so that an invalid one throws.
    func regex(source: String, checked: Bool) throws -> PreparedRegex {
        if checked, let known = expressions.withLock({ $0[source] }), known.source.utf8.elementsEqual(source.utf8) { return known }
        let prepared = try PreparedRegex(source: source, checked: checked, literals: { self.pack?.literals(ofRegex: $0) })
        return expressions.withLock { known in
            guard let first = known[source] else {
                known[source] = prepared
                return prepared
            }
            // A text equal only canonically is another expression: not shared.
            return first.source.utf8.elementsEqual(source.utf8) ? first : prepared
        }
    }

    /// The ICU spelling and literals of every expression prepared so far, sorted.
    var regexes: [(pattern: String, literals: RegexLiterals)] {
        let prepared = expressions.withLock { Array($0.values) }
        let byPattern = Dictionary(prepared.map { ($0.compiled.pattern, $0.compiled.literals) }, uniquingKeysWith: { first, _ in first })
        return byPattern.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// How many patterns were lowered rather than taken from the pack.
    var lowerings: Int { lowered.load(ordering: .relaxed) }

    /// Every pattern lowered or taken so far, sorted by syntax and text.
    var trees: [(syntax: String, text: String, tree: SyntaxNode)] {
        memo.withLock { memo in
            memo.flatMap { syntax, trees in trees.values.map { (syntax, $0.text, $0.tree) } }
        }.sorted { ($0.syntax, $0.text) < ($1.syntax, $1.text) }
    }
}

/// A regular expression of a rule as the loader prepares it: its source, its ICU spelling's
/// metavariable groups and its compiled form (``CompiledRegex``), which rules holding the same
/// source share.
struct PreparedRegex: Sendable {
    /// The expression as written.
    let source: String
    /// Named groups spelled like metavariables.
    let captureNames: [String]
    /// The expression in ICU's spelling, compiled now or at its first use.
    let compiled: CompiledRegex

    /// Prepares `source` through `trees` (shared, with the pack's literals) or on its own.
    init(source: String, checked: Bool, trees: PatternTrees?) throws {
        if let trees {
            self = try trees.regex(source: source, checked: checked)
        } else {
            try self.init(source: source, checked: checked, literals: { _ in nil })
        }
    }

    /// Prepares `source`, taking its literals from `literals` (given the ICU spelling) if it has them.
    init(source: String, checked: Bool, literals: (String) -> RegexLiterals?) throws {
        self.source = source
        let icu = RegexGroupNames.icuSpelling(source)
        captureNames = RegexGroupNames.metavariableGroups(in: icu)
        compiled = try CompiledRegex(pattern: icu, checked: checked, literals: literals(icu))
    }
}
