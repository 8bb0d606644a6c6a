import PythonSyntax

/// What the taint rules of one file share: the rule-free summaries of its functions, and which
/// functions each rule must analyse itself. Built on first use, by the one thread scanning the file.
final class SharedSummaries: @unchecked Sendable {
    private let index: FileIndex
    private let model: FileModel
    private let project: ProjectView?
    private let ruleFreePatterns: TaintPatterns
    private let vocabulary: RelevanceVocabulary
    private let targets: [MetavariableRegex]

    /// `vocabulary`: every identifier the taint rules' relevance checks use; `targets`: the
    /// regexes of their sinks known by the name assigned to.
    init(
        index: FileIndex, model: FileModel, project: ProjectView?, ruleFree: TaintPatterns, vocabulary: RelevanceVocabulary,
        targets: [MetavariableRegex]
    ) {
        self.targets = targets
        self.index = index
        self.model = model
        self.project = project
        self.ruleFreePatterns = ruleFree
        self.vocabulary = vocabulary
    }

    /// Which functions mention what, for ``RuleRelevance/relevant(to:ruleId:project:graph:)``.
    private(set) lazy var relevance = RuleRelevance(
        model: model, index: index, project: project, vocabulary: vocabulary, targets: targets)

    /// What the file assigns to that a sink known by the target's name may match.
    private lazy var assignedTargets = RuleRelevance.assignedTargets(in: index, targets: targets)

    /// Whether the file assigns to a name one of `sinks`' regexes accepts; many files need no
    /// more of the relevance facts than this.
    func assigns(to sinks: [MetavariableRegex]) -> Bool {
        assignedTargets.contains { target in sinks.contains { $0.matches(target) } }
    }

    /// Which functions each one's calls can run, for the summaries' closures and order.
    private(set) lazy var callGraph = CallGraph(model: model, index: index, calls: relevance.calls)

    private var ruleFreeAnalyzer: TaintAnalyzer?

    /// What `roots` and the functions they call do with their parameters, for any rule. Computed
    /// as rules ask: a file where no rule can report needs only its exported functions'.
    func ruleFree(covering roots: [FileModel.Function]) -> [String: FunctionSummary] {
        // Changed in place: a copy taken out and stored back would copy its tables at the first write.
        if ruleFreeAnalyzer == nil {
            ruleFreeAnalyzer = TaintAnalyzer(
                patterns: ruleFreePatterns, index: index, project: project, model: model, callGraph: callGraph)
        }
        if roots.contains(where: { ruleFreeAnalyzer!.summaries[$0.key] == nil }) {
            ruleFreeAnalyzer!.summariseClosure(of: roots)
        }
        return ruleFreeAnalyzer!.summaries
    }
}
