import Foundation
import Signals

/// Judges a candidate's verification against the baseline and turns a failure into a lesson
/// (after Reflexion: the next attempt is told what went wrong, in a few structured lines).
public enum Reflector {
    /// The outcome of judging one run.
    public struct Judgement: Sendable, Hashable {
        /// True when the run counts as a success for `signal`.
        public var passed: Bool
        /// Set when `passed` is false.
        public var lesson: Lesson?
    }

    /// Whether `run` (with `rescan` for findings) fixes `signal` without breaking what
    /// `baseline` shows passing. A run passes when the command exits 0 (and, for a JavaScript
    /// project, its TAP report shows a complete run without failures) — or, when the baseline
    /// itself failed for other reasons, when the signal's own tests now pass and nothing
    /// regressed — and no test that passed before fails now, no fewer tests run, a finding's
    /// re-scan is clean, and an exception's or error log's output (`signalShown`) no longer shows it.
    public static func judge(
        signal: Signal, baseline: Verification, run: Verification, rescan: Rescan?, signalShown: Bool = false
    ) -> Judgement {
        let before = baseline.passedTests
        let after = run.passedTests
        let failingNow = Set(run.tests?.failing ?? [])
        // A TAP report names tests its own way (`suite > test`): the signal's ids count only
        // where the baseline's report knows them.
        let target =
            run.reportFormat == nil
            ? Set(signal.failingTests)
            : Set(signal.failingTests).intersection(before.union(baseline.tests?.failing ?? []))
        let regressed = before.subtracting(after).sorted()
        let stillFailing = target.intersection(failingNow).sorted()
        let details = run.tests?.failures.flatMap(\.details).filter(isExpectedActual) ?? []
        let oldTypes = Set(baseline.tests?.failures.compactMap(\.exceptionType) ?? [])
        let newTypes = Set(run.tests?.failures.compactMap(\.exceptionType) ?? []).subtracting(oldTypes).sorted()

        func fail(_ summary: String, moved: Bool = false) -> Judgement {
            Judgement(
                passed: false,
                lesson: Lesson(
                    summary: summary, stillFailing: stillFailing, newlyFailing: regressed,
                    expectedActual: Array(details.prefix(6)), newErrors: newTypes, failureMoved: moved))
        }

        if run.reason != .exited {
            return fail("the verify command ended by \(run.reason.rawValue) (exit \(run.exitCode))")
        }
        if !regressed.isEmpty {
            return fail("breaks previously passing tests: \(regressed.prefix(5).joined(separator: ", "))")
        }
        if let count = run.testCount, let old = baseline.testCount, count < old {
            return fail("runs fewer tests than before (\(count) < \(old))")
        }
        if signalShown {
            let what = signal.exceptionType.map { "still raises \($0)" } ?? "still logs the error"
            return fail("the verify command \(what)")
        }
        let ownTestsPass = !target.isEmpty && target.isSubset(of: after)
        let commandOK =
            run.succeeded
            || (!baseline.succeeded && ownTestsPass && run.reportProblem == nil
                && failingNow.isSubset(of: Set(baseline.tests?.failing ?? [])))
        if !commandOK {
            if !stillFailing.isEmpty {
                let moved = movedFailure(signal: signal, run: run)
                let first = run.tests?.failures.first { stillFailing.contains($0.test) }
                let why = first.map { $0.message.isEmpty ? "" : " (\($0.message))" } ?? ""
                return fail("still failing: \(stillFailing.prefix(3).joined(separator: ", "))\(why)", moved: moved)
            }
            if !newTypes.isEmpty { return fail("introduces \(newTypes.joined(separator: ", "))") }
            if let format = run.reportFormat, run.exitCode == 0 {
                // The status says passed; the report the verifier asked for does not.
                let problem = run.reportProblem ?? "names failing tests: \(failingNow.sorted().prefix(3).joined(separator: ", "))"
                return fail("the verify command exits 0, but the \(format.uppercased()) report asked for \(problem)")
            }
            let tail = run.outputTail.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
            return fail("the verify command exits \(run.exitCode)\(tail.isEmpty ? "" : ": \(tail)")")
        }
        if !target.isEmpty, !target.isSubset(of: after), run.tests != nil {
            return fail("the failing tests did not run: \(target.subtracting(after).sorted().prefix(3).joined(separator: ", "))")
        }
        if let rescan, !rescan.clean {
            if rescan.ruleFindingsAfter >= rescan.ruleFindingsBefore {
                return fail("the \(rescan.tool) re-scan still reports \(signal.ruleId ?? "the finding")")
            }
            return fail(
                "the \(rescan.tool) re-scan reports new findings in the changed files: \(rescan.introduced.joined(separator: ", "))")
        }
        return Judgement(passed: true, lesson: nil)
    }

    /// A lesson for a proposal refused before it ran.
    public static func refused(_ reason: String) -> Lesson {
        Lesson(summary: "refused: \(reason)")
    }

    /// Assertion introspection lines worth repeating to the next attempt.
    static func isExpectedActual(_ line: String) -> Bool {
        line.hasPrefix("assert ") || line.contains(" == ") || line.contains(" != ") || line.hasPrefix("AssertionError")
            || line.hasPrefix("Expected") || line.hasPrefix("where ") || line.hasPrefix("+  where")
    }

    /// The first still-failing test now fails with another exception type or elsewhere.
    static func movedFailure(signal: Signal, run: Verification) -> Bool {
        guard let first = run.tests?.failures.first(where: { signal.failingTests.contains($0.test) }) else { return false }
        if let type = signal.exceptionType, let now = first.exceptionType, type != now { return true }
        if let old = signal.locations.first, let new = first.locations.last {
            return old.line != new.line || !(old.file.hasSuffix(new.file) || new.file.hasSuffix(old.file))
        }
        return false
    }
}
