import Digest
import Dispatch
import Findings
import Foundation
import Git
import Sandbox
import Signals
import Support

/// The Reflexion loop: actors propose, each proposal is checked by the regression guard, run in
/// its own overlay workspace by the verifier (several at once, `jobs`), re-scanned for
/// findings, and judged; a failure becomes a lesson the next round sees; a success is run once
/// more (flaky guard) and, passing twice, is the candidate. Memory records every attempt.
public struct HealLoop: Sendable {
    /// Heal memory (nil: remember nothing, take no lock).
    public var memory: HealMemory?
    /// Told about progress.
    public var progress: @Sendable (HealProgress) -> Void
    /// The directory the tracer plugin is written to for fault localisation (bound read-only).
    public var tracer: (module: String, source: String)? = HealActors.tracer
    /// Told, once per signal, what the user should know while the loop goes on (fault
    /// localisation without a coverage trace, and why): one line, for stderr.
    public var warn: @Sendable (String) -> Void = { _ in }

    /// A loop with `memory`.
    public init(memory: HealMemory?, progress: @escaping @Sendable (HealProgress) -> Void = { _ in }) {
        self.memory = memory
        self.progress = progress
    }

    /// Runs the loop. Throws `SentinelError` for bad input (a missing repository), an unusable
    /// sandbox, or a signal another heal is working on (`.healBusy`).
    public func run(_ request: HealRequest) throws -> HealOutcome {
        let started = DispatchTime.now()
        let deadline = started.uptimeNanoseconds + UInt64(max(1, request.maxSeconds) * 1e9)
        let workspace = try HealWorkspace(repository: request.repository, in: request.scratchBase)
        var tracerDirectory: String?
        if let tracer {
            let directory = workspace.root + "/tracer"
            try PreparedOutputFile(path: directory + "/\(tracer.module).py", createParents: true).write(tracer.source)
            try CoverageTracer.installUserSite(in: directory, module: tracer.module)
            try TestSelection.install(into: directory)
            try TestTimeLimit.install(into: directory)
            tracerDirectory = directory
        }
        var verifier = Verifier(
            profile: request.profile, command: request.verify, tracerDirectory: tracerDirectory,
            tracerModule: tracer?.module, environment: request.environment, packageIndex: request.packageIndex)
        verifier.readsTAP = Verifier.readsTAP(command: request.verify, files: workspace.files)
        var state = LoopState(
            request: request, deadline: deadline, repository: request.repositoryID ?? RepositoryIdentity.local(request.repository))
        state.declared = DeclaredTests(workspace)
        state.notes += workspace.tooDeep.map {
            "\($0): nested deeper than \(HealWorkspace.maxDepth) directories, not copied into the heal workspace"
        }
        var outcome: HealOutcome?
        for signal in request.signals.map({ $0.relative(to: workspace) }) {
            if state.budgetLeft == nil { break }
            let result = try heal(signal, request: request, workspace: workspace, verifier: verifier, state: &state)
            outcome = result
            if result.candidate != nil { break }
        }
        var final =
            outcome
            ?? HealOutcome(
                signal: request.signals[0], baseline: nil, attempts: [], candidate: nil, stopReason: .exhausted,
                notes: [], totalMilliseconds: 0, verificationMilliseconds: 0, sandboxOverheadMilliseconds: 0, memory: [])
        final.attempts = state.attempts
        if state.skippedAsFailedBefore > 0 {
            let count = state.skippedAsFailedBefore
            let what = count == 1 ? "1 candidate that failed" : "\(count) candidates that failed"
            state.notes.append("memory: \(what) on this signal in an earlier heal not tried again")
        }
        final.notes = state.notes
        final.totalMilliseconds = Int((DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000)
        final.verificationMilliseconds = state.verificationMilliseconds
        final.sandboxOverheadMilliseconds = state.overheadMilliseconds
        final.stages = state.clock.stages
        if final.candidate == nil, let reason = state.budgetLeft == nil ? state.exhaustedBy : nil {
            final.stopReason = reason
        }
        return final
    }

    private func heal(
        _ signal: Signal, request: HealRequest, workspace: HealWorkspace, verifier: Verifier, state: inout LoopState
    ) throws -> HealOutcome {
        try memory?.acquireLock(signal.fingerprint)
        defer { memory?.releaseLock(signal.fingerprint) }
        // This signal's records, then those of the most similar past signals (by embedding).
        let recalled = memory?.recall(signal, repository: state.repository) ?? (records: [], notes: [])
        let remembered = recalled.records
        state.notes += recalled.notes
        var outcome = HealOutcome(
            signal: signal, baseline: nil, attempts: [], candidate: nil, stopReason: .exhausted, notes: [],
            totalMilliseconds: 0, verificationMilliseconds: 0, sandboxOverheadMilliseconds: 0, memory: remembered)

        progress(.baseline)
        // A vulnerable pin's baseline runs with the pinned version, when an index can supply it.
        let pinned = signal.dependency.flatMap { dependency in
            request.packageIndex.map { _ in PackagePin(package: dependency.package, version: dependency.installed) }
        }
        // The unchanged tree gets a quarter of the budget (at least 30 s): a command that hangs
        // there would hang for every candidate too, and must not spend the whole budget saying so.
        let baselineBudget = min(state.budgetLeft ?? 1, max(30, request.maxSeconds / 4))
        let baselineStarted = HealStageClock.now()
        // The same tree, command and sandbox as a heal before this one: its result stands.
        let key = memory == nil ? nil : try? BaselineKey(tree: workspace.digest, verifier: verifier, install: pinned)
        // Each test of the unchanged tree's pytest runs gets a CPU-time limit (``TestTimeLimit``):
        // one that loops fails where it loops, and the others still run.
        let baselineLimit = request.testCPUSeconds ?? TestTimeLimit.forBaseline(budget: baselineBudget)
        // A baseline an earlier heal ran with another limit failed other tests than this one's would.
        let cached = key.flatMap { key in try? memory?.baseline(key) }.flatMap { found in
            found.verification.testCPUSeconds.map { $0 == baselineLimit } ?? true ? found : nil
        }
        // A failing test or an exception has the unchanged tree run under the coverage tracer
        // anyway (fault localisation's spectrum): under pytest, that run is tried as the baseline
        // too (``tracedBaseline``), and the command runs untraced only where it cannot stand.
        let localised = signal.kind == .testFailure || signal.kind == .exception
        let tracedFirst =
            cached == nil && pinned == nil && verifier.tracerDirectory != nil && localised
                && verifier.command.contains("pytest")
            ? tracedBaseline(
                signal: signal, workspace: workspace, verifier: verifier.limitingTests(to: baselineLimit),
                budget: baselineBudget, state: &state)
            : nil
        // The plugins' directory is importable where the traced run printed its spectrum.
        let untraced = tracedFirst?.trace != nil ? verifier.limitingTests(to: baselineLimit) : verifier
        let (baseline, baselineOutput) =
            try cached ?? tracedFirst.flatMap(\.baseline)
            ?? untraced.run(tree: workspace.snapshot, timeout: baselineBudget, install: pinned)
        state.clock.spent("baseline", since: baselineStarted)
        if cached != nil {
            state.notes.append("baseline: the result of an earlier heal of the same tree, command and sandbox (not run again)")
        } else {
            if tracedFirst?.baseline == nil { state.account(baseline) }
            if let key { try? memory?.rememberBaseline(key, baseline, output: baselineOutput) }
        }
        outcome.baseline = baseline
        if baseline.reason == .timeout {
            state.notes.append(
                "the verify command did not finish on the unchanged repository within \(Int(baselineBudget)) s "
                    + "(a quarter of the budget): it hangs before any change, so no candidate can be judged")
            outcome.stopReason = .baselineTimeout
            return outcome
        }
        if signal.kind == .testFailure, baseline.succeeded {
            state.notes.append("the verify command passes on the unchanged repository: \(signal.message) does not reproduce")
            outcome.stopReason = .notReproduced
            return outcome
        }
        if SignalEcho.applies(to: signal), !SignalEcho.shows(signal, in: baselineOutput) {
            // Its exit status alone would then "verify" any patch that makes the command pass.
            let what = signal.exceptionType.map { "raise \($0)" } ?? "log \"\(signal.message.prefix(80))\""
            state.notes.append(
                "the verify command does not \(what) on the unchanged repository: a run that passes would not show "
                    + "the signal gone, so nothing is verified")
            outcome.stopReason = .notReproduced
            return outcome
        }
        var rescanner = Rescanner.forSignal(signal)
        let rescanStarted = HealStageClock.now()
        if let rescanner { progress(.rescanning(tool: rescanner.tool.rawValue)) }
        let findingsBefore = try rescanner.map { try $0.findings(in: workspace.snapshot) }
        if rescanner != nil { state.clock.spent("re-scan", since: rescanStarted) }
        if let scanner = rescanner, let findingsBefore,
            Rescanner.compare(tool: scanner.tool, signal: signal, changed: [], before: findingsBefore, after: [])
                .ruleFindingsBefore == 0
        {
            // The scanner does not see the problem in this tree (a range pin, another tool's
            // report): a re-scan would prove nothing, so the verify command alone decides.
            state.notes.append(
                "the \(scanner.tool) scanner does not report \(signal.ruleId ?? "the finding") in this tree; "
                    + "candidates are judged by the verify command only")
            rescanner = nil
        }

        var traceRun: @Sendable (String) throws -> (Verification, String) = { _ in
            throw HealActorError("no coverage tracer is configured")
        }
        state.oracle = OracleFiles()
        state.failureFiles = []
        state.tracerInTree = false
        // What judges candidates: each test limited (``TestTimeLimit/forCandidates``; the tests
        // failing before keep the baseline's limit), where the plugins' directory proved importable.
        var judging = verifier
        if verifier.tracerDirectory != nil {
            traceRun = { tree in try verifier.run(tree: tree, trace: true, timeout: nil) }
            // One traced run of the unchanged tree tells which files the tests are made of (no
            // candidate may edit them) and is the fault localisation's spectrum too.
            if localised {
                let traceStarted = HealStageClock.now()
                progress(.tracing)
                let trace =
                    tracedFirst?.trace
                    ?? traceBaseline(
                        baseline: baseline, workspace: workspace, verifier: verifier.limitingTests(to: baseline.testCPUSeconds),
                        state: &state,
                        // One that ran out of time gets the budget left, as ever.
                        first: tracedFirst.map(\.run).flatMap { $0.0.reason == .exited ? $0 : nil })
                state.clock.spent("trace", since: traceStarted)
                state.tracerInTree = trace.inTree
                if let spectrum = trace.spectrum {
                    state.testSeconds = Dictionary(
                        spectrum.tests.compactMap { test in test.seconds.map { (test.id, $0) } }, uniquingKeysWith: +)
                    let oracle = OracleFiles(spectrum)
                    state.oracle = oracle
                    let ranked = Ochiai.rank(spectrum).filter { !RegressionGuard.isTestFile($0.file) && !oracle.contains($0.file) }
                    state.suspicious = ranked.prefix(12).map { $0 }
                    state.failureFiles = Set(ranked.map(\.file))
                } else {
                    // Said once, on stderr and in the evidence; the repair actor reads the imports instead.
                    let reason = trace.failure ?? "no coverage document"
                    let message =
                        "coverage tracing unavailable: \(reason); fault localisation reads the modules the failing tests "
                        + "import instead"
                    warn(message)
                    state.notes.append(message)
                    let ranked = ImportLocalisation.rank(signal: signal, baseline: baseline, workspace: workspace)
                    state.suspicious = ranked.prefix(12).map { $0 }
                    state.failureFiles = Set(ranked.map(\.file))
                }
                // Limited where the unchanged tree's run was (a baseline run without the limit, or
                // cached from before it, passed tests a limited candidate could fail).
                if trace.spectrum != nil, !trace.inTree, let limit = baseline.testCPUSeconds {
                    let failing = baseline.tests?.failing ?? []
                    if let chosen = request.testCPUSeconds {
                        judging = verifier.limitingTests(to: chosen)
                    } else {
                        // How long a fixed test runs is not known from how quickly it failed:
                        // those keep the baseline's limit.
                        judging = verifier.limitingTests(
                            to: TestTimeLimit.forCandidates(base: limit, testSeconds: state.testSeconds, passing: baseline.passedTests),
                            longer: TestTimeLimit.Longer(seconds: limit, tests: failing))
                    }
                    let cut = TestTimeLimit.cut(
                        base: limit, testSeconds: state.testSeconds, failing: failing, named: Set(signal.failingTests))
                    if !cut.isEmpty {
                        state.notes.append(
                            "\(cut.count) failing test(s) the signal does not name took about the limit of "
                                + "\(TestTimeLimit.environmentValue(limit)) CPU seconds per test on the unchanged tree "
                                + "(\(cut.prefix(3).joined(separator: ", "))): they count as failing before any change, "
                                + "and no candidate is held to pass them; --test-timeout raises the limit")
                    }
                }
                let snapshot = workspace.snapshot
                let limited = judging
                if let traced = trace.run {
                    traceRun = { tree in
                        tree == snapshot ? traced : try limited.run(tree: tree, trace: true, timeout: nil)
                    }
                } else {
                    let reason = trace.failure ?? ""
                    traceRun = { _ in throw SentinelError(.traceMissing, "coverage trace: \(reason)") }
                }
            }
        }
        let turns = Turns(
            loop: self, signal: signal, request: request, workspace: workspace, verifier: judging, baseline: baseline,
            rescanner: rescanner, findingsBefore: findingsBefore, remembered: remembered, traceRun: traceRun,
            compared: ComparedValues.parse(baselineOutput),
            failedBefore: (try? memory?.failedChanges(of: signal, repository: state.repository)) ?? [])
        func verified(_ candidate: Candidate) -> HealOutcome {
            outcome.candidate = candidate
            outcome.stopReason = .verified
            return outcome
        }
        // A fix memory verified for this signal or a similar one goes first, as it was, if it
        // changes only files this signal is in.
        let offer = MemoryReplay.proposals(
            remembered, workspace: workspace, scope: ReplayScope(signal: signal, executed: state.failureFiles))
        state.notes += offer.refusals
        let replays = offer.proposals.filter { state.tried.insert(patchKey($0)).inserted }
        if !replays.isEmpty, let candidate = try turns.validate(replays, state: &state) { return verified(candidate) }
        let actors = request.actors.filter { $0.applies(to: signal) }.sorted { $0.kind < $1.kind }
        if actors.isEmpty { state.notes.append("no actor can act on a \(signal.kind.rawValue) signal (\(signal.source))") }
        // A model, when one is configured, has a turn after each short template budget, not after
        // the templates have given up: it may need a round or two where they need hundreds.
        let model = actors.first { $0.kind == .llmPatch }
        var modelRound = 1
        var modelSilent = false
        var sinceTurn = (attempts: state.attempts.count, clock: DispatchTime.now().uptimeNanoseconds)
        for actor in actors where actor.kind != .llmPatch {
            var round = 1
            while state.budgetLeft != nil {
                guard let proposals = turns.proposals(of: actor, round: round, state: &state) else { break }
                var schedule = RegionSchedule(proposals, budget: Self.regionBudget(request))
                while !schedule.isEmpty, state.budgetLeft != nil {
                    if let model, !modelSilent, modelRound <= Self.maxModelRounds {
                        let seconds = Double(DispatchTime.now().uptimeNanoseconds - sinceTurn.clock) / 1e9
                        if state.attempts.count - sinceTurn.attempts >= Self.templateBudgetAttempts
                            || seconds >= Self.templateBudgetSeconds
                        {
                            let turn = try turns.modelTurn(model, round: modelRound, state: &state)
                            modelRound += 1
                            if case .verified(let candidate) = turn { return verified(candidate) }
                            if case .silent = turn { modelSilent = true }
                            sinceTurn = (state.attempts.count, DispatchTime.now().uptimeNanoseconds)
                        }
                    }
                    let chunk = schedule.next(Self.chunk(request))
                    let chunkStarted = DispatchTime.now().uptimeNanoseconds
                    if let candidate = try turns.validate(chunk, state: &state) { return verified(candidate) }
                    schedule.charge(chunk, seconds: Double(DispatchTime.now().uptimeNanoseconds - chunkStarted) / 1e9)
                }
                round += 1
            }
        }
        if let model, !modelSilent {
            while state.budgetLeft != nil, modelRound <= Self.maxModelRounds {
                let round = modelRound
                modelRound += 1
                let turn = try turns.modelTurn(model, round: round, state: &state)
                if case .verified(let candidate) = turn { return verified(candidate) }
                if case .silent = turn { break }
            }
        }
        return outcome
    }

    /// Template attempts before a configured model's turn (its first, and each next one).
    static let templateBudgetAttempts = 8
    /// Seconds of template attempts before a configured model's turn (its first, and each next one).
    static let templateBudgetSeconds = 20.0
    /// Rounds a model is asked at most (its actor stops earlier when it has its own limit).
    static let maxModelRounds = 100
    /// Seconds each region of the code gets per pass (``RegionSchedule``): a twentieth of the
    /// budget, at least 5 s: about ten candidates at a line before the next line's turn when
    /// each run takes a second on two cores.
    static func regionBudget(_ request: HealRequest) -> Double { max(5, request.maxSeconds / 20) }

    /// Proposals validated between checks of the model's turn.
    static func chunk(_ request: HealRequest) -> Int { max(1, request.jobs) * 2 }

    /// One signal's proposing and validating, for the loop's turns.
    private struct Turns {
        let loop: HealLoop
        let signal: Signal
        let request: HealRequest
        let workspace: HealWorkspace
        let verifier: Verifier
        let baseline: Verification
        let rescanner: Rescanner?
        let findingsBefore: [Finding]?
        let remembered: [MemoryRecord]
        let traceRun: @Sendable (String) throws -> (Verification, String)
        /// What the failing tests compared on the unchanged tree.
        let compared: [ComparedValues]
        /// Changes (``Proposal/changeKey``) that failed on this signal in earlier heals (memory).
        let failedBefore: Set<String>

        /// What a model's turn came to.
        enum ModelTurn {
            /// It had nothing more to say (or failed: the note says why).
            case silent
            /// It proposed something that was not the fix.
            case tried
            /// It proposed the fix.
            case verified(Candidate)
        }

        /// `actor`'s proposals for `round`; nil when it failed (the note says why).
        private func ask(_ actor: any HealActor, round: Int, state: inout LoopState) -> [Proposal]? {
            loop.progress(.proposing(actor.kind))
            var context = ActorContext(
                signal: signal, workspace: workspace, baseline: baseline, attempts: state.attempts, memory: remembered,
                traceRun: traceRun, suspicious: state.suspicious, compared: compared)
            context.secondsLeft = state.budgetLeft ?? 0
            let started = HealStageClock.now()
            defer { state.clock.spent("\(actor.kind.rawValue) proposing", since: started) }
            do {
                return try actor.propose(context, round: round)
            } catch {
                state.notes.append("\(actor.kind.rawValue): \(error)")
                return nil
            }
        }

        /// `actor`'s proposals for `round`, new ones only and ranked; nil when it has nothing
        /// (or failed: the note says why).
        func proposals(of actor: any HealActor, round: Int, state: inout LoopState) -> [Proposal]? {
            guard let proposals = ask(actor, round: round, state: &state) else { return nil }
            let fresh = proposals.filter { proposal in
                guard state.tried.insert(loop.patchKey(proposal)).inserted else { return false }
                // What failed on this very signal before fails again: memory skips it.
                guard !failedBefore.isEmpty, failedBefore.contains(proposal.changeKey) else { return true }
                state.skippedAsFailedBefore += 1
                return false
            }
            let ranked = loop.rank(fresh, memory: remembered)
            return ranked.isEmpty ? nil : ranked
        }

        /// One round of the model: its proposal validated; a reply that repeats an earlier patch
        /// becomes a lesson for the next round, not the end of its turns.
        func modelTurn(_ model: any HealActor, round: Int, state: inout LoopState) throws -> ModelTurn {
            guard let proposals = ask(model, round: round, state: &state), !proposals.isEmpty else { return .silent }
            let marked = proposals.map { proposal in
                // Repeated means judged already; one a template has queued but not run yet is
                // judged now (and not again when its turn comes).
                let key = loop.patchKey(proposal)
                state.tried.insert(key)
                guard state.judged.contains(key) else { return proposal }
                var repeated = proposal
                repeated.unusable = "the same patch as an earlier attempt; propose a different change"
                return repeated
            }
            return try validate(marked, state: &state).map(ModelTurn.verified) ?? .tried
        }

        func validate(_ proposals: [Proposal], state: inout LoopState) throws -> Candidate? {
            try loop.validate(
                proposals, signal: signal, request: request, workspace: workspace, verifier: verifier, baseline: baseline,
                rescanner: rescanner, findingsBefore: findingsBefore, state: &state)
        }
    }

    /// The actor's order, with strategies verified on similar signals raised by a quarter of their
    /// score (not by a fixed amount: a proven strategy on an unlikely line must not pass every
    /// likely change), then smaller first.
    fileprivate func rank(_ proposals: [Proposal], memory: [MemoryRecord]) -> [Proposal] {
        let proven = Set(memory.filter(\.verified).map { "\($0.actor)/\($0.strategy)" })
        return proposals.enumerated().sorted { a, b in
            let boostA = proven.contains("\(a.element.actor.rawValue)/\(a.element.strategy)") ? 1.25 : 1
            let boostB = proven.contains("\(b.element.actor.rawValue)/\(b.element.strategy)") ? 1.25 : 1
            let scoreA = a.element.score * boostA
            let scoreB = b.element.score * boostB
            if scoreA != scoreB { return scoreA > scoreB }
            if a.element.size != b.element.size { return a.element.size < b.element.size }
            return a.offset < b.offset
        }.map(\.element)
    }

    fileprivate func patchKey(_ proposal: Proposal) -> String {
        if proposal.unusable != nil { return "unusable\u{0}\(proposal.actor.rawValue)\u{0}\(proposal.description)" }
        return proposal.changes.map { "\($0.path)\u{0}\($0.after ?? "\u{1}")" }.joined(separator: "\u{0}")
    }

    /// Validates `proposals` in batches of `jobs`; returns the first verified candidate.
    fileprivate func validate(
        _ proposals: [Proposal], signal: Signal, request: HealRequest, workspace: HealWorkspace, verifier: Verifier,
        baseline: Verification, rescanner: Rescanner?, findingsBefore: [Finding]?, state: inout LoopState
    ) throws -> Candidate? {
        // A change is judged once per heal, whoever proposed it first.
        let proposals = proposals.filter { $0.unusable != nil || state.judged.insert(patchKey($0)).inserted }
        var index = 0
        while index < proposals.count {
            guard state.budgetLeft != nil else { return nil }
            let room = request.maxAttempts - state.attempts.count
            guard room > 0 else {
                state.exhaustedBy = .maxAttempts
                return nil
            }
            let batch = Array(proposals[index..<min(proposals.count, index + min(request.jobs, room))])
            index += batch.count
            let batchStarted = HealStageClock.now()
            defer { state.clock.spent("\(batch[0].actor.rawValue) verifying", since: batchStarted) }
            progress(
                .verifying(
                    first: state.attempts.count + 1, last: state.attempts.count + batch.count, limit: request.maxAttempts,
                    actor: batch[0].actor))
            let timeout = candidateTimeout(baseline: baseline, budget: state.budgetLeft ?? 1)
            let oracle = state.oracle
            let declared = state.declared
            let screen = screenTests(signal: signal, baseline: baseline, verifier: verifier, state: state)
            let results = ParallelFor.map(batch) { proposal in
                self.trial(
                    proposal, signal: signal, workspace: workspace, verifier: verifier, baseline: baseline,
                    rescanner: rescanner, findingsBefore: findingsBefore, timeout: timeout, oracle: oracle, declared: declared,
                    screen: screen)
            }
            var passing: [(Proposal, Trial)] = []
            for (proposal, trial) in zip(batch, results) {
                trial.verifications.forEach { state.account($0) }
                if trial.screenBlind, state.screening {
                    state.screening = false
                    state.notes.append(
                        "candidates are not screened on the failing tests first: a screen did not run them where the "
                            + "whole command did")
                }
                if trial.passed {
                    passing.append((proposal, trial))
                } else {
                    record(proposal, trial, verdict: trial.refused ? .rejected : .failed, signal: signal, state: &state)
                }
            }
            // The smallest plausible patch wins; a flaky one gives way to the next smallest. Bumps
            // keep the actor's order: the version clearing most advisories, not the fewest
            // changed characters (1.0.1 → 1.0.2 is a smaller edit than 1.0.1 → 1.1.0).
            let ordered = passing.sorted { a, b in
                a.0.bump != nil && b.0.bump != nil ? a.0.score > b.0.score : a.0.size < b.0.size
            }
            for (position, (proposal, trial)) in ordered.enumerated() {
                if state.budgetLeft == nil {
                    record(proposal, trial, verdict: .skipped, signal: signal, state: &state)
                    continue
                }
                // The re-run is of the whole command: the screen has nothing left to tell.
                let again = self.trial(
                    proposal, signal: signal, workspace: workspace, verifier: verifier, baseline: baseline,
                    rescanner: rescanner, findingsBefore: findingsBefore,
                    timeout: candidateTimeout(baseline: baseline, budget: state.budgetLeft ?? 1), oracle: state.oracle,
                    declared: state.declared, screen: [])
                again.verifications.forEach { state.account($0) }
                var both = trial
                both.verifications += again.verifications
                guard again.passed else {
                    both.lesson = Lesson(summary: "flaky: passed once, then \(again.lesson?.summary ?? "failed")")
                    record(proposal, both, verdict: .flaky, signal: signal, state: &state)
                    continue
                }
                let attempt = record(proposal, both, verdict: .verified, signal: signal, state: &state)
                let stats = (try? memory?.successRate(of: proposal.actor)) ?? (0, 0)
                let lines = GitPatch.changedLines(attempt.patch).count
                // The candidate is judged by its runs of the whole command; its screen is in the attempt.
                let whole = both.verifications.filter { $0.selectedTests == nil }
                let confidence = CandidateConfidence.compute(
                    actor: proposal.actor, verifiedRuns: whole.count,
                    ranTests: whole.allSatisfy { $0.tests != nil },
                    signalGone: both.rescan?.clean ?? !signal.failingTests.isEmpty, changedLines: lines,
                    memory: (stats.0, stats.1),
                    bumpExercised: proposal.bump.map { _ in
                        whole.allSatisfy { $0.dependency?.exercised == true }
                    })
                var candidate = Candidate(
                    signal: signal, actor: proposal.actor, description: proposal.description, strategy: proposal.strategy,
                    patch: attempt.patch, changes: proposal.changes, confidence: confidence,
                    verifications: whole, rescan: both.rescan, notes: proposal.notes, changedLines: lines)
                candidate.targetVersion = proposal.targetVersion
                candidate.bump = proposal.bump
                candidate.rationale = proposal.rationale
                candidate.baseline = baseline
                candidate.sandbox = SandboxSummary(request.profile)
                candidate.checks = VerificationChecks(signal: signal, runs: whole, oracle: state.oracle)
                candidate.coverage = coverage(
                    of: candidate, workspace: workspace, verifier: verifier, baseline: baseline, state: &state)
                // The others that passed once ran too: the evidence accounts for every run.
                for (other, run) in ordered[(position + 1)...] {
                    var passedOnce = run
                    passedOnce.lesson = Lesson(summary: "passed once; not re-run: attempt \(attempt.number) was verified first")
                    record(other, passedOnce, verdict: .skipped, signal: signal, state: &state)
                }
                return candidate
            }
        }
        return nil
    }

    /// One more run of the winner under the coverage tracer, for the lines it adds that the tests
    /// execute (the autonomy policy's risk reads it). Only when the project's check ran pytest
    /// tests and the patch adds Python source; a failure here costs the candidate nothing.
    private func coverage(
        of candidate: Candidate, workspace: HealWorkspace, verifier: Verifier, baseline: Verification,
        state: inout LoopState
    ) -> ChangeCoverage? {
        guard verifier.tracerDirectory != nil, baseline.tests != nil,
            ChangeCoverage.measure(patch: candidate.patch, executed: []) != nil,
            let budget = state.budgetLeft
        else { return nil }
        do {
            let placed = state.tracerInTree ? tracer.map { [tracerFile($0)] } ?? [] : []
            let tree = try workspace.tree(applying: candidate.changes + placed)
            defer { workspace.remove(tree) }
            let (run, output) = try verifier.run(
                tree: tree, trace: true, timeout: candidateTimeout(baseline: baseline, budget: budget))
            state.account(run)
            let executed = try CoverageTracer.parse(output: output).tests.reduce(into: Set<SourceLine>()) {
                $0.formUnion($1.lines)
            }
            return ChangeCoverage.measure(patch: candidate.patch, executed: executed)
        } catch {
            state.notes.append("coverage of the candidate's lines was not measured: \(error)")
            return nil
        }
    }

    /// A candidate may take ten times what the unchanged tree took (at least 30 s), never more than
    /// the budget left: a mutation that loops forever must not eat the whole budget. When the
    /// baseline installed a pin, each run also gets time for its own install (at least 60 s).
    func candidateTimeout(baseline: Verification, budget: Double) -> Double {
        let install = baseline.dependency.map { max(60, 3 * Double($0.installMilliseconds) / 1000) } ?? 0
        return min(budget, max(30, 10 * Double(baseline.commandMilliseconds) / 1000) + install)
    }

    /// One proposal's check: guard, tree, screen, verify, re-scan, judge.
    private struct Trial: Sendable {
        var passed = false
        var refused = false
        var lesson: Lesson?
        var verifications: [Verification] = []
        var rescan: Rescan?
        /// The screen saw none of its tests where the whole command then did: selection does
        /// not work for this command, and screening stops.
        var screenBlind = false
    }

    /// The tests a candidate is screened on before its whole run: the signal's failing tests as
    /// the baseline's pytest report names them (any candidate the whole run can verify must pass
    /// them), the quickest in the traced baseline first. None when the command is not pytest's,
    /// its Python cannot see the plugin's directory, or an earlier screen could not select them.
    private func screenTests(signal: Signal, baseline: Verification, verifier: Verifier, state: LoopState) -> [String] {
        guard state.screening, !state.tracerInTree, verifier.tracerDirectory != nil, !verifier.readsTAP,
            let failing = baseline.tests?.failing, baseline.reportFormat == nil
        else { return [] }
        // Quickest first: the screen stops at the first test that still fails (`-x`).
        let tests = Set(signal.failingTests).intersection(failing).sorted {
            let a = state.testSeconds[$0] ?? .infinity
            let b = state.testSeconds[$1] ?? .infinity
            return a != b ? a < b : $0 < $1
        }
        guard tests.count <= TestSelection.maximumTests,
            TestSelection.environmentValue(tests).utf8.count <= TestSelection.maximumBytes
        else { return [] }
        return tests
    }

    /// Whether a screen shows the candidate cannot pass: it ran out of time or was killed, or a
    /// screened test still fails as it failed on the unchanged tree. A test that passed and then
    /// errored at teardown (a module fixture's finalizer the whole run blames on another test)
    /// does not count, nor does one failing with another exception type than before: run alone
    /// or in another order, a test that leans on others' state fails its own way, and the whole
    /// command decides.
    static func screenRejects(_ screen: Verification, screen tests: [String], baseline: Verification) -> Bool {
        if screen.reason != .exited { return true }
        func exceptionTypes(_ run: Verification) -> [String: String?] {
            Dictionary((run.tests?.failures ?? []).map { ($0.test, $0.exceptionType) }, uniquingKeysWith: { first, _ in first })
        }
        let before = exceptionTypes(baseline)
        let now = exceptionTypes(screen)
        let failing = Set(screen.tests?.failing ?? []).subtracting(screen.passedTests)
        return tests.contains { test in
            guard failing.contains(test) else { return false }
            guard let type = now[test] ?? nil, let old = before[test] ?? nil else { return true }
            return type == old
        }
    }

    private func trial(
        _ proposal: Proposal, signal: Signal, workspace: HealWorkspace, verifier: Verifier, baseline: Verification,
        rescanner: Rescanner?, findingsBefore: [Finding]?, timeout: Double, oracle: OracleFiles, declared: DeclaredTests,
        screen: [String]
    ) -> Trial {
        var trial = Trial()
        if let reason = proposal.unusable ?? RegressionGuard.refusal(proposal.changes, oracle: oracle, declared: declared) {
            trial.refused = true
            trial.lesson = Reflector.refused(reason)
            return trial
        }
        do {
            let tree = try workspace.tree(applying: proposal.changes)
            defer { workspace.remove(tree) }
            let pin = proposal.bump.map { PackagePin(package: $0.package, version: $0.to) }
            var screened: Verification?
            if !screen.isEmpty, pin == nil, rescanner == nil {
                let (first, _) = try verifier.run(tree: tree, timeout: timeout, only: screen)
                trial.verifications = [first]
                if Self.screenRejects(first, screen: screen, baseline: baseline) {
                    // What the whole run would show of these tests, with none of the others' runs
                    // to compare: the baseline's failures stay, so its errors are not new ones.
                    var partial = baseline
                    partial.tests?.passed = []
                    partial.tests?.counts = [:]
                    let judgement = Reflector.judge(signal: signal, baseline: partial, run: first, rescan: nil)
                    trial.lesson = judgement.lesson ?? Lesson(summary: "the failing tests still fail")
                    return trial
                }
                screened = first
            }
            let (run, output) = try verifier.run(tree: tree, timeout: timeout, install: pin)
            trial.verifications.append(run)
            if let screened, screened.passedTests.union(screened.tests?.failing ?? []).isDisjoint(with: screen) {
                let seen = run.passedTests.union(run.tests?.failing ?? [])
                trial.screenBlind = !seen.isDisjoint(with: screen)
            }
            if let rescanner, let findingsBefore {
                let after = try rescanner.findings(in: tree)
                trial.rescan = Rescanner.compare(
                    tool: rescanner.tool, signal: signal, changed: proposal.changes.map(\.path), before: findingsBefore,
                    after: after)
            }
            let judgement = Reflector.judge(
                signal: signal, baseline: baseline, run: run, rescan: trial.rescan,
                signalShown: SignalEcho.shows(signal, in: output))
            trial.passed = judgement.passed
            trial.lesson = judgement.lesson
        } catch {
            trial.lesson = Lesson(summary: "could not be verified: \(error)")
        }
        return trial
    }

    @discardableResult
    private func record(_ proposal: Proposal, _ trial: Trial, verdict: Verdict, signal: Signal, state: inout LoopState)
        -> Attempt
    {
        let patch = (try? GitPatch.diff(proposal.changes)) ?? ""
        let attempt = Attempt(
            number: state.attempts.count + 1, actor: proposal.actor, description: proposal.description,
            strategy: proposal.strategy, patchHash: SHA256.hex(patch), patch: patch, size: proposal.size,
            verdict: verdict, lesson: verdict == .verified ? nil : trial.lesson, verifications: trial.verifications,
            rescan: trial.rescan, notes: proposal.notes, changeKey: proposal.changeKey)
        state.attempts.append(attempt)
        if verdict != .skipped { _ = try? memory?.record(attempt, for: signal, repository: state.repository) }
        return attempt
    }
}
