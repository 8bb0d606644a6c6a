import Foundation
import Git
import LLM
import Signals
import Support

/// Asks an OpenAI-compatible model for a patch, one per round, showing it the signal, the code
/// around its locations and every earlier attempt with its lesson (Reflexion). Off unless
/// `SENTINEL_LLM_URL` and `SENTINEL_LLM_MODEL` are set; the key never leaves this process.
public struct LLMActor: HealActor {
    /// Model-written patches.
    public let kind = ActorKind.llmPatch
    /// The proposer (its client holds the token budget).
    public var proposer: LLMProposer
    /// Rounds before giving up on the model.
    public var maxRounds: Int
    /// Lines of context shown around each location.
    public var contextLines = 40

    /// An actor asking through `proposer`, for at most `maxRounds` rounds.
    public init(proposer: LLMProposer, maxRounds: Int = 5) {
        self.proposer = proposer
        self.maxRounds = maxRounds
    }

    /// The actor configured by the environment, or nil when no model is.
    public static func fromEnvironment(_ environment: [String: String]) throws -> LLMActor? {
        guard let configuration = try LLMConfiguration.fromEnvironment(environment) else { return nil }
        return LLMActor(proposer: LLMProposer(client: LLMClient(configuration: configuration)))
    }

    /// Every signal but a vulnerable dependency (the bump actor's, with the advisory's own data).
    public func applies(to signal: Signal) -> Bool { signal.kind != .vulnerableDependency }

    /// One proposal per round; the round's lessons are every earlier attempt's.
    public func propose(_ context: ActorContext, round: Int) throws -> [Proposal] {
        guard round <= maxRounds else { return [] }
        let files = Self.sourceFiles(context.workspace)
        let excerpts = excerpts(context, files: files)
        // Memory first (verified fixes of similar signals lead), then this run's attempts.
        let remembered = context.memory.prefix(4).map { record in
            LLMAttempt(
                change: record.patch.isEmpty ? record.description : record.patch,
                lesson: record.verified
                    ? "earlier verified fix of a similar signal (\(record.signalMessage))"
                    : "earlier attempt at a similar signal: \(record.lesson ?? record.verdict.rawValue)")
        }
        // Its own earlier rounds always (their lessons are what reflection is for), then the
        // latest of the others.
        let own = context.attempts.filter { $0.actor == kind }.suffix(3)
        let others = context.attempts.filter { $0.actor != kind }.suffix(5)
        let attempts =
            remembered
            + (others + own).sorted { $0.number < $1.number }.map { attempt in
                LLMAttempt(
                    change: attempt.patch.isEmpty ? attempt.description : attempt.patch,
                    lesson: attempt.lesson?.summary ?? attempt.verdict.rawValue)
            }
        var summary = context.signal.message
        if !context.signal.failingTests.isEmpty {
            summary += "\nFailing tests: " + context.signal.failingTests.prefix(10).joined(separator: ", ")
        }
        if let details = context.baseline.tests?.failures.first?.details, !details.isEmpty {
            summary += "\n" + details.prefix(8).joined(separator: "\n")
        }
        // What the failing tests compared, as values: the model aims by the difference.
        for pair in context.compared.prefix(3) {
            summary += "\nExpected:\n" + LLMPrompt.clipped(pair.expected, to: 1_000)
            summary += "\nActual:\n" + LLMPrompt.clipped(pair.actual, to: 1_000)
        }
        do {
            let proposal = try proposer.propose(
                signal: summary, excerpts: excerpts, attempts: attempts, files: files, within: context.secondsLeft)
            var made = Proposal(
                actor: kind, changes: proposal.changes, description: "model patch, round \(round)",
                score: 1, strategy: "llm")
            made.rationale = ReplyExplanation.text(of: proposal.reply.content)
            if !proposal.testPaths.isEmpty {
                made.unusable = "the model edited tests or how they run: \(proposal.testPaths.joined(separator: ", "))"
            }
            return [made]
        } catch let error as SentinelError where error.code == .llmEdits || error.code == .llmResponse {
            var unusable = Proposal(actor: kind, changes: [], description: "model reply, round \(round)", strategy: "llm")
            unusable.unusable = "the model's reply could not be used: \(error.message)"
            return [unusable]
        }
    }

    /// Most lines of the localised function shown whole, and most of its call sites shown.
    static let maximumFunctionLines = 120
    static let maximumCallers = 3

    /// The function fault localisation ranks first, whole, and the places outside the tests that
    /// call it (a few lines each): the model sees the code under repair and how it is used.
    static func localisedFunction(_ context: ActorContext, files: [String: String]) -> [LLMExcerpt] {
        guard let top = context.suspicious.first, let source = files[top.file],
            let file = try? RepairFile(path: top.file, source: source),
            let function = file.enclosingFunction(ofLine: top.line), let name = function.text
        else { return [] }
        let lines = source.components(separatedBy: "\n")
        let first = function.range.start.line
        let last = min(lines.count, file.codeEnd(of: function).line)
        guard first <= last, last - first < maximumFunctionLines else { return [] }
        var out = [LLMExcerpt(path: top.file, firstLine: first, text: lines[(first - 1)..<last].joined(separator: "\n"))]
        for (path, text) in files.sorted(by: { $0.key < $1.key }) where !RegressionGuard.isTestFile(path) {
            let fileLines = text.components(separatedBy: "\n")
            for (index, line) in fileLines.enumerated() where out.count <= maximumCallers {
                let number = index + 1
                guard line.contains("\(name)("), !line.contains("def \(name)("),
                    path != top.file || number < first || number > last
                else { continue }
                let from = max(1, number - 2)
                let to = min(fileLines.count, number + 2)
                out.append(LLMExcerpt(path: path, firstLine: from, text: fileLines[(from - 1)..<to].joined(separator: "\n")))
            }
        }
        return out
    }

    /// Python and text sources the model may edit, bounded in total.
    static func sourceFiles(_ workspace: HealWorkspace, limit: Int = 2 << 20) -> [String: String] {
        var files: [String: String] = [:]
        var total = 0
        for path in workspace.files where path.hasSuffix(".py") || path.hasSuffix(".txt") || path.hasSuffix(".toml") {
            guard let text = workspace.read(path), total + text.utf8.count <= limit else { continue }
            files[path] = text
            total += text.utf8.count
        }
        return files
    }

    private func excerpts(_ context: ActorContext, files: [String: String]) -> [LLMExcerpt] {
        var shown = Self.localisedFunction(context, files: files)
        var covered = Set(shown.flatMap { excerpt in excerpt.lines.map { "\(excerpt.path):\($0)" } })
        var seen = Set<String>()
        // The code under repair first (fault localisation's top lines), then where the signal points.
        let suspicious = context.suspicious.prefix(6).map { Signal.Location(file: $0.file, line: $0.line) }
        for location in suspicious + context.signal.locations where files[location.file] != nil {
            guard !covered.contains("\(location.file):\(location.line ?? 1)") else { continue }
            let key = "\(location.file):\((location.line ?? 1) / contextLines)"
            guard seen.insert(key).inserted, shown.count < 6, let text = files[location.file] else { continue }
            let lines = text.components(separatedBy: "\n")
            let center = max(1, location.line ?? 1)
            let first = max(1, center - contextLines / 2)
            let last = min(lines.count, center + contextLines / 2)
            guard first <= last else { continue }
            shown.append(LLMExcerpt(path: location.file, firstLine: first, text: lines[(first - 1)..<last].joined(separator: "\n")))
            covered.formUnion((first...last).map { "\(location.file):\($0)" })
        }
        if shown.isEmpty {
            // No location inside the repository: show the smallest non-test sources whole.
            for (path, text) in files.sorted(by: { $0.value.count < $1.value.count }).prefix(4)
            where !RegressionGuard.isTestFile(path) {
                shown.append(LLMExcerpt(path: path, text: text))
            }
        }
        return shown
    }
}
