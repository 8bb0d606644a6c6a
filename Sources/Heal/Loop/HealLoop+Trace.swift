import Git
import Signals

/// The traced run of the unchanged tree: the coverage spectrum fault localisation ranks lines
/// by, or why there is none.
struct BaselineTrace: Sendable {
    /// The traced run and its whole output (the actors' traced run of the snapshot is this one).
    var run: (Verification, String)?
    /// The spectrum the run printed.
    var spectrum: TestSpectrum?
    /// Why there is no spectrum, in words for the user.
    var failure: String?
    /// The plugin was found only as a module at the tree's root: later traced runs put it there too.
    var inTree = false
}

extension HealLoop {
    /// Runs the verify command on the snapshot under the coverage tracer. When the command's
    /// Python cannot import the plugin from its directory (a virtual environment, or `python -I`,
    /// with a `PYTHONPATH` of its own), it runs again with the plugin as a module at the tree's
    /// root, where `python -m pytest` finds it in the working directory.
    func traceBaseline(
        baseline: Verification, workspace: HealWorkspace, verifier: Verifier, state: inout LoopState,
        first: (Verification, String)? = nil
    ) -> BaselineTrace {
        guard baseline.tests != nil else {
            return BaselineTrace(failure: "the verify command's output is not pytest's (the tracer is a pytest plugin)")
        }
        var trace = BaselineTrace()
        var made = first
        func attempt(on tree: String, verifier: Verifier) -> Bool {
            do {
                let run = try made ?? verifier.run(tree: tree, trace: true, timeout: state.budgetLeft ?? 1)
                if made == nil { state.account(run.0) }
                made = nil
                trace.run = run
                do {
                    trace.spectrum = try CoverageTracer.parse(output: run.1)
                    return true
                } catch {
                    trace.failure = CoverageTracer.missingReason(output: run.1, run: run.0, module: verifier.tracerModule ?? "")
                }
            } catch {
                trace.failure = "the traced run could not be made: \(error)"
            }
            return false
        }
        if attempt(on: workspace.snapshot, verifier: verifier) { return trace }
        guard let tracer, let first = trace.run,
            CoverageTracer.pluginNotImported(in: first.1, module: tracer.module),
            !workspace.files.contains(tracer.module + ".py"), state.budgetLeft != nil
        else { return trace }
        let failure = trace.failure
        do {
            let tree = try workspace.tree(applying: [tracerFile(tracer)])
            defer { workspace.remove(tree) }
            // The other plugins stay in the directory the command's Python cannot import from.
            if attempt(on: tree, verifier: verifier.limitingTests(to: nil)) {
                trace.inTree = true
                return trace
            }
        } catch {}
        // The first run's reason: the plugin was not importable from its own directory.
        trace.run = first
        trace.failure = failure
        return trace
    }

    /// The unchanged tree run under the coverage tracer first, within the baseline's budget.
    /// It is the baseline too (`baseline`, its output without the tracer's document) only where
    /// it cannot differ from an untraced run in what the judge reads: it ran to its end, printed a
    /// spectrum, and every test failing under the tracer is one the signal names (one that fails
    /// only under tracing would otherwise drop out of the tests a candidate must keep passing).
    /// Its spectrum stands either way (`trace`); `run` spares ``traceBaseline`` running it again.
    func tracedBaseline(
        signal: Signal, workspace: HealWorkspace, verifier: Verifier, budget: Double, state: inout LoopState
    ) -> (baseline: (Verification, String)?, trace: BaselineTrace?, run: (Verification, String))? {
        guard let run = try? verifier.run(tree: workspace.snapshot, trace: true, timeout: budget) else { return nil }
        state.account(run.0)
        guard run.0.reason == .exited, let tests = run.0.tests, let spectrum = try? CoverageTracer.parse(output: run.1) else {
            return (nil, nil, run)
        }
        let trace = BaselineTrace(run: run, spectrum: spectrum)
        guard Set(tests.failing).isSubset(of: Set(signal.failingTests)) else { return (nil, trace, run) }
        let output = CoverageTracer.removingTrace(from: run.1)
        var verification = run.0
        verification.outputTail = Verifier.tail(output)
        return ((verification, output), trace, run)
    }

    /// The plugin as a new module at a tree's root.
    func tracerFile(_ tracer: (module: String, source: String)) -> FileChange {
        FileChange(path: tracer.module + ".py", before: nil, after: tracer.source)
    }
}
