import PythonSyntax
import Findings

/// What scanning one file produced.
public struct FileScanResult: Sendable {
    /// Findings, sorted by position then rule id.
    public var findings: [Finding]
    /// A one-line notice when the file could not be parsed (it is then skipped).
    public var parseError: String?

    /// Creates a result.
    public init(findings: [Finding], parseError: String? = nil) {
        self.findings = findings
        self.parseError = parseError
    }
}

/// The native rule engine: parses each file once and runs every applicable rule over it.
public struct SASTEngine: Sendable {
    /// The rules this engine applies.
    public let rules: RuleSet
    private let compiled: [CompiledRule]

    /// Prepares `rules` (indexes, prefilters) for scanning many files.
    public init(rules: RuleSet) {
        self.rules = rules
        self.compiled = rules.rules.map(CompiledRule.init)
    }

    /// Scans one Python file. `file` is the path findings carry (relative to the scan root).
    /// Never throws: a file that does not parse yields `parseError` and no findings.
    public func scan(file: String, source: String) -> FileScanResult {
        // Matching and taint recurse once per tree level; long operator chains are deep, so the
        // work runs on the parser's large-stack thread like parsing does.
        let compiled = compiled
        let result = try? PyLargeStack.run { Self.scan(file: file, source: source, rules: compiled) }
        return result ?? FileScanResult(findings: [], parseError: "\(file): internal error while scanning (file skipped)")
    }

    private static func scan(file: String, source: String, rules compiled: [CompiledRule]) -> FileScanResult {
        let text = SourceText(source)
        let module: PythonModule
        do {
            // Already on a large-stack thread: parse here rather than on yet another thread.
            module = try PythonParser.parseOnCurrentThread(bytes: text.bytes, fileName: file, pattern: false)
        } catch let error as PythonSyntaxError {
            return FileScanResult(findings: [], parseError: "\(error.description) (file skipped)")
        } catch {
            return FileScanResult(findings: [], parseError: "\(file): cannot parse: \(error) (file skipped)")
        }
        let index = FileIndex(root: module.root, source: text)
        let builder = FindingBuilder(file: file, source: text, root: module.root)
        var findings: [Finding] = []
        let sourceCache = SourceMatchCache()
        for rule in compiled where rule.applies(to: index.identifiers) {
            findings += rule.findings(in: index, builder: builder, sourceCache: sourceCache)
        }
        findings.sort {
            ($0.location.startLine ?? 0, $0.location.startColumn ?? 0, $0.ruleId)
                < ($1.location.startLine ?? 0, $1.location.startColumn ?? 0, $1.ruleId)
        }
        return FileScanResult(findings: findings)
    }
}

/// A rule with what it needs precomputed: the identifiers a file must mention, taint indexes.
struct CompiledRule: Sendable {
    let rule: Rule
    let required: IdentifierRequirement
    let taint: TaintPatterns?

    init(_ rule: Rule) {
        self.rule = rule
        switch rule.mode {
        case .search(let formula):
            required = IdentifierRequirement(alternatives: Self.required(formula))
            taint = nil
        case .taint(let spec):
            required = .always
            taint = TaintPatterns(spec)
        }
    }

    /// Identifier sets of which at least one must be wholly present for any match; nil when unknown.
    static func required(_ formula: PatternFormula) -> [Set<String>]? {
        switch formula {
        case .pattern(let pattern):
            return IdentifierRequirement(patterns: [pattern.tree]).alternatives
        case .either(let alternatives):
            var out: [Set<String>] = []
            for alternative in alternatives {
                guard let sets = required(alternative) else { return nil }
                out += sets
            }
            return out
        case .all(let clauses):
            for clause in clauses {
                if case .positive(let formula) = clause, let sets = required(formula) { return sets }
            }
            return nil
        }
    }

    func applies(to identifiers: Set<String>) -> Bool {
        if let taint { return taint.applies(to: identifiers) }
        return required.isSatisfied(by: identifiers)
    }

    func findings(in index: FileIndex, builder: FindingBuilder, sourceCache: SourceMatchCache) -> [Finding] {
        switch rule.mode {
        case .search(let formula):
            var seen = Set<Int>()
            var out: [Finding] = []
            for match in PatternSearch(index: index).matches(formula)
            where seen.insert(match.range.start.offset * 1_000_003 + match.range.end.offset).inserted {
                out.append(builder.finding(rule, range: match.range, bindings: match.bindings, evidence: nil))
            }
            return out
        case .taint:
            guard let taint else { return [] }
            var analyzer = TaintAnalyzer(patterns: taint, index: index, sourceCache: sourceCache)
            analyzer.run()
            var seen = Set<Int>()
            var out: [Finding] = []
            // One finding per sink line: `exec(compile(x))` is one problem, not two.
            for flow in analyzer.flows where seen.insert(flow.sink.range.start.line).inserted {
                var evidence = "\(flow.origin.label) at line \(flow.origin.line) flows to \(flow.sink.label)"
                if let via = flow.via { evidence += " through \(via)()" }
                out.append(builder.finding(rule, range: flow.sink.range, bindings: flow.sink.bindings, evidence: evidence))
            }
            return out
        }
    }
}
