import Languages
import Foundation
import PythonSyntax
import Synchronization

/// One pass over a parsed file that lets each rule look only at the nodes it could match: nodes
/// by kind, calls by the last segment of their (import-resolved) callee, and every identifier.
final class FileIndex: Sendable {
    let root: SyntaxNode
    let source: SourceText
    let aliases: ImportAliases
    let byKind: NodesByKind
    let callsByName: [String: [SyntaxNode]]
    /// Statement lists (module and blocks), for multi-statement patterns.
    let blocks: [SyntaxNode]
    /// Every identifier, attribute name and imported module segment in the file.
    let identifiers: Set<String>
    /// Attribute nodes by attribute name.
    let attributesByName: [String: [SyntaxNode]]
    /// Name nodes bound by an import to another dotted name, by the last segment of that name.
    let aliasNamesByLast: [String: [SyntaxNode]]
    /// The kinds left out of `byKind`, collected by one extra walk the first time a rule asks.
    private let lazyKinds = LazyKinds()
    /// What each scope assigns to each name, read at the first question (``ValueOrigins``).
    let scopeAssignments = ScopeAssignments()

    /// How the file's language hoisted the functions written in its expressions (nil: it did not),
    /// so that a callback is followed where it is written.
    let hoisting: FunctionHoisting?
    /// The work this file's analysis has done against its budget (``WorkMeter``); every rule's
    /// matching and taint analysis of the file charge it.
    let meter: WorkMeter

    /// Indexes `root`, a file of `language`: where it binds imported values to names, the aliases
    /// include those (``JavaScriptValueAliases``).
    init(root: SyntaxNode, source: SourceText, language: SourceLanguage = .python, meter: WorkMeter = WorkMeter()) {
        self.root = root
        self.source = source
        self.meter = meter
        let reader = language.language
        self.hoisting = reader?.hoisting
        self.aliases = ImportAliases(root: root, javaScript: reader?.bindsImportedValuesToNames ?? false)
        var byKind = NodesByKind()
        var calls: [String: [SyntaxNode]] = [:]
        var blocks: [SyntaxNode] = []
        var identifiers: Set<String> = []
        var attributes: [String: [SyntaxNode]] = [:]
        var aliasNames: [String: [SyntaxNode]] = [:]
        let aliases = self.aliases
        root.walk { node in
            if !FileIndex.isUnindexed(node.kind) { byKind.append(node) }
            FileIndex.noteIdentifiers(of: node, in: &identifiers)
            switch node.kind {
            case .module, .block:
                blocks.append(node)
            case .attribute:
                if let text = node.text { attributes[text, default: []].append(node) }
            case .name:
                if let text = node.text {
                    if !aliases.isEmpty, let full = aliases.resolve(text) {
                        aliasNames[FileIndex.lastSegment(full), default: []].append(node)
                    }
                }
            case .call:
                if let callee = node.children.first {
                    for key in FileIndex.callKeys(callee, aliases) { calls[key, default: []].append(node) }
                }
            default:
                break
            }
            return true
        }
        self.byKind = byKind
        self.callsByName = calls
        self.blocks = blocks
        self.identifiers = identifiers
        self.attributesByName = attributes
        self.aliasNamesByLast = aliasNames
    }

    /// The identifiers of `root` that an index of it lists (``identifiers``), without indexing it:
    /// what a scan gathers from every file before it chooses the rules to read (``RuleIndex``).
    static func identifiers(of root: SyntaxNode) -> Set<String> {
        var identifiers: Set<String> = []
        root.walk { node in
            noteIdentifiers(of: node, in: &identifiers)
            return true
        }
        return identifiers
    }

    /// Adds what `node` gives ``identifiers``: a name, attribute name, keyword, parameter or
    /// definition name, or each segment of an imported module's dotted name.
    private static func noteIdentifiers(of node: SyntaxNode, in identifiers: inout Set<String>) {
        switch node.kind {
        case .attribute, .name, .keyword, .parameter, .varArgs, .kwArgs, .functionDef, .asyncFunctionDef, .classDef:
            if let text = node.text { identifiers.insert(text) }
        case .alias, .importFrom:
            if let text = node.text {
                for part in text.split(separator: ".") { identifiers.insert(String(part)) }
            }
        default:
            break
        }
    }

    /// The last segment of a callee, before and after import resolution (`sp.call` → `call`;
    /// `s` bound by `from os import system as s` → `s`, `system`).
    static func callKeys(_ callee: SyntaxNode, _ aliases: ImportAliases) -> [String] {
        switch callee.kind {
        case .attribute:
            return callee.text.map { [$0] } ?? []
        case .name:
            guard let text = callee.text else { return [] }
            if let full = aliases.resolve(text), case let last = lastSegment(full), last != text { return [text, last] }
            return [text]
        default:
            return []
        }
    }

    /// `a.b.c` → `c`; a name without dots is its own last segment. (Not `split`: this runs for
    /// every aliased name and call of a file.)
    static func lastSegment(_ dotted: String) -> String {
        guard let dot = dotted.utf8.lastIndex(of: UInt8(ascii: ".")) else { return dotted }
        return String(dotted[dotted.utf8.index(after: dot)...])
    }

    /// The most numerous kinds, which patterns rarely start with: found by walking when needed.
    /// (A switch, not a Set: this runs for every node of every file.) Strings are indexed: rules
    /// ask for them in nearly every file (string patterns, `"$S"` regexes, required strings).
    static func isUnindexed(_ kind: SyntaxKind) -> Bool {
        switch kind {
        case .name, .integer, .float, .true, .false, .none, .keyword, .parameter, .empty, .block, .decorators, .typeParams,
            .parameters, .formattedValue, .alias:
            return true
        default:
            return false
        }
    }

    /// Nodes of `kind`, from the index or by walking the tree for the kinds it leaves out.
    func nodes(of kind: SyntaxKind) -> [SyntaxNode] {
        if !Self.isUnindexed(kind) { return byKind[kind] }
        return lazyKinds.nodes(of: kind, in: root)
    }

    /// The calls (in the index's order) with a key (``callKeys(_:_:)``) that every one of
    /// `regexes` matches; remembered, since several rules and alternatives ask with one regex.
    func calls(namedBy regexes: [MetavariableRegex]) -> [SyntaxNode] {
        lazyKinds.calls(namedBy: regexes) {
            let names = Set(callsByName.keys.filter { key in regexes.allSatisfy { $0.matches(key) } })
            if names.isEmpty { return [] }
            return byKind[.call].filter { call in
                guard let callee = call.children.first, let text = callee.text else { return false }
                switch callee.kind {
                case .attribute: return names.contains(text)
                case .name: return names.contains(text) || aliases.resolve(text).map { names.contains(Self.lastSegment($0)) } == true
                default: return false
                }
            }
        }
    }

    /// The file's text lowercased, for literal tests over the whole file (made once, when first asked).
    var lowercased: LowercasedText { lazyKinds.lowercased(source.bytes) }

    /// Every expression node, in pre-order (collected once per file).
    var expressions: [SyntaxNode] { lazyKinds.expressions(in: root) }

    /// Whether the file has a string literal of each of these values.
    func hasStrings(_ values: Set<String>) -> Bool {
        values.isEmpty || lazyKinds.strings(of: byKind[.string]).isSuperset(of: values)
    }

    /// Statements and the structural pieces of definitions and statements.
    static func isNonExpression(_ kind: SyntaxKind) -> Bool {
        switch kind {
        case .module, .block, .empty, .functionDef, .asyncFunctionDef, .classDef, .decorators, .decorator, .typeParams, .typeParam,
            .parameters, .parameter, .varArgs, .kwArgs, .positionalOnlyMarker, .keywordOnlyMarker, .arguments, .return, .delete, .assign,
            .augAssign, .annAssign, .typeAlias, .exprStmt, .pass, .break, .continue, .raise, .assert, .import, .importFrom, .alias, .global,
            .nonlocal, .if, .while, .for, .asyncFor, .with, .asyncWith, .withItem, .try, .tryStar, .exceptHandler, .match, .matchCase,
            .matchValue, .matchSingleton, .matchSequence, .matchMapping, .matchKeyValue, .matchRest, .matchClass, .matchKeyword, .matchStar,
            .matchAs, .matchOr, .keyValue, .comprehension, .keyword, .slice, .formattedValue:
            return true
        default:
            return false
        }
    }

    /// Every node; only patterns that are a bare metavariable need this, so it is not kept.
    var all: [SyntaxNode] { root.preorder }

    /// Nodes a single-node pattern could match.
    func candidates(for pattern: SyntaxNode) -> [SyntaxNode] {
        switch pattern.kind {
        case .call:
            if let key = PatternIndexKey.callName(pattern) { return callsByName[key] ?? [] }
            return byKind[.call]
        case .name:
            // A bare `$X` stands for an expression (as in Semgrep), never a statement or a file:
            // those would bind huge texts for metavariable-regex to scan.
            if pattern.text?.hasPrefix("$") == true { return expressions }
            return nodes(of: .name) + nodes(of: .attribute)
        case .attribute:
            // A name can match an attribute pattern only through an import alias.
            guard let text = pattern.text, !text.hasPrefix("$") else {
                return nodes(of: .attribute) + aliasNamesByLast.values.joined()
            }
            return (attributesByName[text] ?? []) + (aliasNamesByLast[text] ?? [])
        case .ellipsis:
            return all
        case .string where pattern.text.map(PatternMatcher.isStringMetavariable) ?? false:
            return nodes(of: .string) + nodes(of: .joinedStr) + nodes(of: .bytes)
        case .exprStmt where PatternMatcher.isWildcard(pattern) || pattern.children.first?.kind == .name:
            return all
        default:
            return nodes(of: pattern.kind)
        }
    }
}

/// What a pattern needs to be present in a file before it is worth trying.
enum PatternIndexKey {
    /// The concrete last segment of a call pattern's callee (`subprocess.$F(...)` has none).
    static func callName(_ pattern: SyntaxNode) -> String? {
        guard pattern.kind == .call, let callee = pattern.children.first, let text = callee.text,
            callee.kind == .name || callee.kind == .attribute, !text.hasPrefix("$")
        else { return nil }
        return text
    }

    /// String values every match of `pattern` must contain: a concrete string in the pattern
    /// matches only a string node with the same decoded value (not `"..."`, not `"$S"`).
    static func requiredStrings(_ pattern: SyntaxNode) -> Set<String> {
        var found: Set<String> = []
        pattern.walk { node in
            switch node.kind {
            case .string:
                if let text = node.text, text != "...", !PatternMatcher.isStringMetavariable(text) { found.insert(text) }
                return false
            case .boolOp, .ifExp:
                return false
            default:
                return true
            }
        }
        return found
    }

    /// Identifiers every match of `pattern` must contain (names, attribute names and keywords
    /// outside metavariables); a file lacking any of them cannot match.
    static func requiredIdentifiers(_ pattern: SyntaxNode) -> Set<String> {
        var found: Set<String> = []
        pattern.walk { node in
            switch node.kind {
            case .name, .attribute, .keyword, .parameter, .varArgs, .kwArgs, .functionDef, .asyncFunctionDef,
                .classDef:
                if let text = node.text, !text.hasPrefix("$") { found.insert(text) }
                return true
            case .alias, .importFrom:
                // `import Crypto.Cipher` needs `Crypto` and `Cipher` among the file's module segments.
                if let text = node.text, !text.hasPrefix("$") {
                    for part in text.split(separator: ".") where part != "*" { found.insert(String(part)) }
                }
                return true
            case .boolOp, .ifExp:
                // Only the spine of expressions is certain; alternatives inside are not.
                return false
            default:
                return true
            }
        }
        return found
    }
}

/// Which files a rule can skip: the rule needs one of `alternatives`, each a set of identifiers
/// the file must all contain. No alternatives means "cannot tell; always run".
struct IdentifierRequirement: Sendable {
    var alternatives: [Set<String>]?

    static let always = IdentifierRequirement(alternatives: nil)

    init(alternatives: [Set<String>]?) { self.alternatives = alternatives }

    init(patterns: [SyntaxNode]) {
        self.init(identifierSets: patterns.map(PatternIndexKey.requiredIdentifiers))
    }

    /// ``init(patterns:)`` from the identifiers each compiled pattern already holds.
    init(compiled patterns: [CompiledPattern]) {
        self.init(identifierSets: patterns.map(\.requiredIdentifiers))
    }

    private init(identifierSets: [Set<String>]) {
        var out: [Set<String>] = []
        for ids in identifierSets {
            if ids.isEmpty {
                alternatives = nil
                return
            }
            out.append(ids)
        }
        alternatives = out
    }

    func isSatisfied(by identifiers: Set<String>) -> Bool {
        guard let alternatives else { return true }
        return alternatives.contains { $0.isSubset(of: identifiers) }
    }
}

/// Per-file cache of the node kinds the index leaves out. A file is scanned by one thread, and the
/// cache is filled at most once, so the mutex is never contended.
final class LazyKinds: Sendable {
    private struct State {
        var byKind: NodesByKind?
        var expressionNodes: [SyntaxNode]?
        var stringValues: Set<String>?
        var lowercasedText: LowercasedText?
        var callsByRegexes: [[MetavariableRegex]: [SyntaxNode]] = [:]
    }
    private let state = Mutex(State())

    func expressions(in root: SyntaxNode) -> [SyntaxNode] {
        state.withLock { state in
            if let expressionNodes = state.expressionNodes { return expressionNodes }
            var out: [SyntaxNode] = []
            root.walk { node in
                if !FileIndex.isNonExpression(node.kind) { out.append(node) }
                return true
            }
            state.expressionNodes = out
            return out
        }
    }

    func lowercased(_ bytes: [UInt8]) -> LowercasedText {
        state.withLock { state in
            if let lowercasedText = state.lowercasedText { return lowercasedText }
            let made = LowercasedText(bytes)
            state.lowercasedText = made
            return made
        }
    }

    /// The calls `collect` finds for `regexes`, collected once (under the mutex: `collect` must
    /// not come back here).
    func calls(namedBy regexes: [MetavariableRegex], collect: () -> [SyntaxNode]) -> [SyntaxNode] {
        state.withLock { state in
            if let known = state.callsByRegexes[regexes] { return known }
            let found = collect()
            state.callsByRegexes[regexes] = found
            return found
        }
    }

    /// The values of the file's string literals (`strings`, the same each time).
    func strings(of strings: [SyntaxNode]) -> Set<String> {
        state.withLock { state in
            if let stringValues = state.stringValues { return stringValues }
            let values = Set(strings.compactMap(\.text))
            state.stringValues = values
            return values
        }
    }

    func nodes(of kind: SyntaxKind, in root: SyntaxNode) -> [SyntaxNode] {
        state.withLock { state in
            if let byKind = state.byKind { return byKind[kind] }
            var collected = NodesByKind()
            root.walk { node in
                if FileIndex.isUnindexed(node.kind) { collected.append(node) }
                return true
            }
            state.byKind = collected
            return collected[kind]
        }
    }
}

/// Nodes grouped by kind in an array indexed by the kind's ordinal: no hashing per node.
struct NodesByKind: Sendable {
    private static let kindCount = SyntaxKind.allCases.count
    private var lists = [[SyntaxNode]](repeating: [], count: kindCount)

    /// The nodes of `kind`, in the order they were added.
    subscript(kind: SyntaxKind) -> [SyntaxNode] { lists[kind.ordinal] }

    mutating func append(_ node: SyntaxNode) { lists[node.kind.ordinal].append(node) }
}
