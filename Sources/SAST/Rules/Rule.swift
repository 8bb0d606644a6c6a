import Findings
import Foundation
import PythonSyntax
import Synchronization

/// A compiled code pattern: the text the rule author wrote and its parsed tree.
public struct CompiledPattern: Sendable, Hashable {
    /// The pattern as written in the rule file.
    public var source: String
    /// The parsed tree (``PythonParser/parsePattern(_:)``).
    public var tree: SyntaxNode
    /// Identifiers every match contains: a file without one of them is not searched.
    let requiredIdentifiers: Set<String>
    /// String literal values every match contains (`"password"` of a dict pattern).
    let requiredStrings: Set<String>
    /// The `"$S"` metavariables of the pattern: what they bind is always a string literal.
    let stringMetavariables: Set<String>

    /// A pattern and its parsed tree.
    public init(source: String, tree: SyntaxNode) {
        self.source = source
        self.tree = tree
        requiredIdentifiers = PatternIndexKey.requiredIdentifiers(tree)
        requiredStrings = PatternIndexKey.requiredStrings(tree)
        var strings: Set<String> = []
        tree.walk { node in
            if node.kind == .string, let text = node.text, text.hasPrefix("$") { strings.insert(text) }
            return true
        }
        stringMetavariables = strings
    }
}

/// A search-mode formula: what must (and must not) match for a finding.
public indirect enum PatternFormula: Sendable, Hashable {
    /// One code pattern.
    case pattern(CompiledPattern)
    /// Any of the alternatives (`pattern-either`).
    case either([PatternFormula])
    /// Every clause holds (`patterns`).
    case all([PatternClause])
}

/// One entry of a `patterns:` list.
public enum PatternClause: Sendable, Hashable {
    /// `pattern`, `pattern-either` or a nested `patterns`: must match the same code.
    case positive(PatternFormula)
    /// `pattern-not`: a match of this at the same place removes the finding.
    case not(PatternFormula)
    /// `pattern-inside`: the finding must lie inside a match of this.
    case inside(PatternFormula)
    /// `pattern-not-inside`: the finding must not lie inside a match of this.
    case notInside(PatternFormula)
    /// `metavariable-regex`: the text bound to `metavariable` must match `regex`.
    case metavariableRegex(metavariable: String, regex: MetavariableRegex)
    /// `metavariable-value`: the code bound to `metavariable`, or a value it was given (followed
    /// back through assignments, `self.attr` and local functions' returns), must match `formula`.
    case metavariableValue(metavariable: String, formula: PatternFormula)
}

/// A regular expression compiled once per rule (`metavariable-regex`).
///
/// NSRegularExpression rather than Swift `Regex`: it is several times faster on the short strings
/// metavariables bind, and these run on every candidate match.
public struct MetavariableRegex: Sendable, Hashable {
    /// The expression as written.
    public var source: String
    /// Named groups spelled like metavariables (`(?P<ALL>...)` or `(?<ALL>...)`): a match binds
    /// `$ALL` to the group's text, as in Semgrep.
    public let captureNames: [String]
    private let compiled: RegexBox
    /// Literal text every match contains: most texts are rejected without running the expression.
    var literals: RegexLiterals { compiled.literals }

    /// Compiles `source` (Python's `(?P<NAME>` spelling of named groups is accepted); throws when
    /// it is not a valid expression. `checked`: it was compiled before (``CompiledRegex``), so it
    /// is compiled at its first use.
    public init(source: String, checked: Bool = false) throws {
        try self.init(try PreparedRegex(source: source, checked: checked, trees: nil))
    }

    /// The expression ``PatternTrees/regex(source:checked:)`` prepared.
    init(_ prepared: PreparedRegex) {
        source = prepared.source
        captureNames = prepared.captureNames
        compiled = RegexBox(prepared.compiled)
    }

    /// Whether `text` matches at its start (as Python's `re.match` does).
    public func matches(_ text: String) -> Bool { literals.mayMatch(text) && compiled.matches(text) }

    /// ``matches(_:)`` for a text whose literals were already checked (``mayMatch(_:from:to:)``).
    func matchesChecked(_ text: String) -> Bool { compiled.matches(text) }

    /// Whether the bytes `[from, to)` of `bytes` may match; false means they certainly do not.
    func mayMatch(_ bytes: [UInt8], from: Int, to: Int) -> Bool {
        if literals.required.isEmpty { return true }
        return bytes.withUnsafeBufferPointer { all in
            literals.mayMatch(UnsafeBufferPointer(rebasing: all[max(0, from)..<min(max(from, to), all.count)]))
        }
    }

    /// The text of each group in `captureNames` when `text` matches at its start (a group that
    /// took no part binds the empty string); nil when it does not match.
    public func captures(_ text: String) -> [String: String]? {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        guard let match = compiled.regex?.firstMatch(in: text, options: [.anchored], range: range) else { return nil }
        var out: [String: String] = [:]
        for name in captureNames {
            let group = match.range(withName: name)
            out["$" + name] = group.location == NSNotFound ? "" : Range(group, in: text).map { String(text[$0]) } ?? ""
        }
        return out
    }

    /// Whether the region `range` (UTF-16 offsets) of `string` matches at its start, as if it were
    /// a string of its own. Avoids copying and bridging one string per candidate.
    func matches(in string: String, range: NSRange) -> Bool {
        compiled.regex?.firstMatch(in: string, options: [.anchored], range: range) != nil
    }

    /// Two patterns are equal when their source texts are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.source == rhs.source }
    /// Hashes the pattern's source text, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// Holds a compiled expression (immutable and documented thread-safe) and remembers answers:
/// metavariables bind the same few names (`password`, `self`) over and over.
private final class RegexBox: Sendable {
    private let expression: CompiledRegex
    private let memo = Mutex<[String: Bool]>([:])

    init(_ expression: CompiledRegex) { self.expression = expression }

    var regex: NSRegularExpression? { expression.regex }
    var literals: RegexLiterals { expression.literals }

    func matches(_ text: String) -> Bool {
        if let known = memo.withLock({ $0[text] }) { return known }
        // Matched outside the mutex: threads asking about different names do not wait on each other.
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        let result = regex?.firstMatch(in: text, options: [.anchored], range: range) != nil
        memo.withLock { memo in
            if memo.count > 4096 { memo.removeAll(keepingCapacity: true) }
            memo[text] = result
        }
        return result
    }
}

/// A taint sink: a pattern and, optionally, the metavariable whose value must be tainted.
public struct TaintSink: Sendable, Hashable {
    /// The sink pattern.
    public var pattern: CompiledPattern
    /// `focus: $X`: only the code bound to `$X` must be tainted; nil means any argument.
    public var focus: String?
    /// `pattern-inside:`: the sink counts only inside code matching this (a view function).
    public var inside: CompiledPattern?
    /// `pattern-not:`: code matching any of these is not a sink (a JSON response).
    public var excluded: [CompiledPattern] = []
    /// `pattern-not-inside:`: the sink does not count inside code matching one of these (a
    /// response whose content type the function then sets to plain text).
    public var notInside: [CompiledPattern] = []
    /// `metavariable-regex:` / `metavariable-value:` on the sink's bindings: the code bound to a
    /// metavariable must match (a name that holds a secret, a parser that resolves entities).
    public var conditions: [PatternClause] = []
    /// `evidence:` conditions on the sink's bindings (written as `metavariable-value` and
    /// `metavariable-regex` are) that show the sink is the library's: the receiver's origin resolves
    /// to a MongoDB collection, an import, a constructor. A flow into the sink without them is still
    /// reported, at low confidence: identity by evidence, not by name (DESIGN §1c).
    public var evidence: [PatternClause] = []
}

/// Where tainted values come from, and whether the source is remote (request data, sockets) or
/// local to the machine (environment, argv, stdin): a flow from a local source alone is at most
/// medium severity and low confidence, as in CodeQL's `-local` queries.
public struct TaintSource: Sendable, Hashable {
    /// The source pattern.
    public var pattern: CompiledPattern
    /// `kind: local`.
    public var isLocal: Bool
    /// `pattern-inside:`: the source counts only inside code matching this (a handler class).
    public var inside: CompiledPattern? = nil
    /// `kind: library`: what a package's callers pass its exported functions. Whether that is
    /// attacker data depends on the caller, so a flow from it alone is at most medium severity,
    /// medium confidence: reported, never failing the default gate (issue 75).
    public var isLibrary = false
    /// `in:`: where in a request the source reads (`query` for `flask.request.args`), for a
    /// proof's request (`sentinel scan --prove`); nil where it is not a request's part.
    public var requestPart: RequestPart? = nil
}

/// The parts of a `mode: taint` rule.
public struct TaintSpec: Sendable, Hashable {
    /// Where tainted values come from.
    public var sources: [TaintSource]
    /// Where they must not arrive.
    public var sinks: [TaintSink]
    /// Calls whose results are clean.
    public var sanitizers: [CompiledPattern]
    /// The source sets the rule includes (`- include: web-request`), which models extend.
    public var sourceSets: [String] = []
    /// The sanitizer sets it includes (`- include: type-coercions`), which the rule index names.
    public var sanitizerSets: [String] = []
}

/// What a rule looks for.
public enum RuleMode: Sendable, Hashable {
    /// Search mode: code matching the formula is reported.
    case search(PatternFormula)
    /// Taint mode: flows from sources to sinks are reported.
    case taint(TaintSpec)
}

/// One native rule, loaded from a YAML file (format in `rules/README.md`).
public struct Rule: Sendable, Hashable {
    /// Unique id, `<language>.<name>`.
    public var id: String
    /// The finding message; `$X` metavariables are substituted.
    public var message: String
    /// Severity of the findings.
    public var severity: Severity
    /// How likely a finding of this rule is real.
    public var confidence: Confidence
    /// Languages the rule applies to (`python`).
    public var languages: [String]
    /// CWE ids.
    public var cwe: [Int]
    /// Search or taint.
    public var mode: RuleMode
    /// The `fix:` templates, tried in order: a finding gets the first whose metavariables are all
    /// bound (empty when the rule has no fix).
    public var fixes: [String]
    /// `fix-imports`: modules a fix may use; one the chosen template names (`shlex.`) and the file
    /// does not import at module level is imported by a second replacement.
    public var fixImports: [String]
    /// `fix-holes`: metavariable → the call that wraps each value the string bound to it
    /// interpolates (`html.escape(str($HOLE))`; ``StringHoles``). Empty when the rule has none.
    public var fixHoles: [String: String] = [:]
    /// `metadata.references`.
    public var references: [String]
    /// `metadata.bandit`: the Bandit checks this rule covers.
    public var banditIds: [String]
    /// `metadata.semgrep`: the Semgrep rule ids this rule corresponds to.
    public var semgrepIds: [String]
    /// The file the rule came from.
    public var file: String
    /// `confidence-from`: evidence that raises a finding's confidence above `confidence`.
    public var confidenceFrom: ConfidenceFrom? = nil
    /// `frameworks` and `project-not-regex`: the projects the rule applies in (checked by the
    /// scan over the whole project, not in rule tests).
    public var scope = ProjectScope()
    /// `admin-handlers-confidence`: the confidence of a finding inside a request handler only
    /// administrators reach (``RouteHandler/administratorsOnly``); nil: the same as elsewhere.
    public var adminHandlersConfidence: Confidence? = nil
    /// `application-errors-confidence`: the confidence of a finding inside an `except` clause
    /// that catches only exceptions the project defines and raises with its own literal messages
    /// (``ApplicationErrors``); nil: the same as elsewhere.
    public var applicationErrorsConfidence: Confidence? = nil

    /// The SARIF metadata of this rule.
    public var descriptor: RuleDescriptor {
        .native(
            id: id, message: message, references: references, severity: severity, cwe: cwe, confidence: confidence,
            tags: isTaint ? ["taint"] : [])
    }

    /// Whether this is a `mode: taint` rule.
    public var isTaint: Bool {
        if case .taint = mode { return true }
        return false
    }
}

extension RuleDescriptor {
    /// The SARIF metadata of a native rule of any kind: its name is the id's last part, its help
    /// the first reference.
    static func native(
        id: String, message: String, references: [String], severity: Severity, cwe: [Int], confidence: Confidence,
        tags: [String]
    ) -> RuleDescriptor {
        RuleDescriptor(
            id: id, tool: ToolName.native, name: id.split(separator: ".").last.map(String.init),
            shortDescription: message, helpURI: references.first, defaultSeverity: severity, cwe: cwe, tags: tags,
            precision: confidence)
    }
}
