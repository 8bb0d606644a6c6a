import Foundation
import Git
import Signals

/// Program repair without a model, for failing tests: the suite runs once under the coverage
/// tracer in the sandbox, lines are ranked by Ochiai suspiciousness over passing and failing
/// tests, and repair templates rewrite the most suspicious lines. Every candidate parses; the
/// loop validates them in parallel and keeps the smallest that passes.
public struct RepairActor: HealActor {
    /// Logic repair.
    public let kind = ActorKind.logicRepair
    /// Suspicious lines edited.
    public var topLines = 40
    /// Candidates proposed at most.
    public var limit = 1000

    /// A repair actor.
    public init() {}

    /// Failing tests and exceptions (the suite must reproduce them for localisation to work).
    public func applies(to signal: Signal) -> Bool {
        signal.kind == .testFailure || signal.kind == .exception
    }

    /// Round 1: localise and generate; nothing after. Without a coverage trace (the loop has
    /// said why), the lines come from what the failing tests import (``ImportLocalisation``).
    public func propose(_ context: ActorContext, round: Int) throws -> [Proposal] {
        guard round == 1 else { return [] }
        let ranked: [SuspiciousLine]
        if let spectrum = try? CoverageTracer.parse(output: context.traceRun(context.workspace.snapshot).1) {
            guard !spectrum.failingTests.isEmpty else {
                throw HealActorError("fault localisation saw no failing test under the coverage tracer")
            }
            let oracle = OracleFiles(spectrum)
            ranked = Ochiai.rank(spectrum).filter { !RegressionGuard.isTestFile($0.file) && !oracle.contains($0.file) }
            guard !ranked.isEmpty else { throw HealActorError("no source line outside the tests ran in a failing test") }
        } else {
            ranked = ImportLocalisation.rank(context)
            guard !ranked.isEmpty else {
                throw HealActorError("no coverage trace, and the failing tests import no module of the repository")
            }
        }
        var sources: [String: String] = [:]
        for line in ranked.prefix(topLines) where sources[line.file] == nil {
            sources[line.file] = context.workspace.read(line.file)
        }
        let candidates = try RepairGenerator().candidates(
            sources: sources, suspicious: ranked, top: topLines, limit: limit,
            difference: OutputDifference(context.compared))
        return candidates.map { candidate in
            var proposal = Proposal(
                actor: kind, changes: [candidate.change], description: "\(candidate.change.path):\(candidate.description)",
                score: candidate.score, strategy: candidate.template)
            proposal.region = "\(candidate.change.path):\(candidate.line)"
            return proposal
        }
    }
}
