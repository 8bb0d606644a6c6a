import CLICore
import Foundation
import Heal
import Support

/// Heal's steps through the `ProgressReporter`: attempt N/M, the actor, what it is doing, and
/// the time since heal began. On a terminal one self-overwriting line; in a CI log a plain
/// `sentinel: heal: …` line at each step and, while a step lasts, again every interval, so a
/// long verification never looks like a hang.
struct HealProgressLine: Sendable {
    private let reporter: ProgressReporter
    private let started = ContinuousClock.now

    init(mode: ProgressReporter.Mode) {
        reporter = ProgressReporter(mode: mode)
    }

    func show(_ event: HealProgress) {
        let text: String
        switch event {
        case .baseline: text = "baseline: running the verify command on the unchanged tree…"
        case .rescanning(let tool): text = "re-scan: \(tool) on the unchanged tree…"
        case .tracing: text = "trace: running the verify command under the coverage tracer…"
        case .proposing(let actor): text = "\(actor.rawValue): proposing…"
        case .verifying(let first, let last, let limit, let actor):
            let range = first == last ? "\(first)" : "\(first)-\(last)"
            text = "attempt \(range)\(limit == Int.max ? "" : "/\(limit)") · \(actor.rawValue) · verifying…"
        }
        let started = started
        reporter.report(
            "heal", announce: true,
            plain: { _ in "heal: \(text) \((ContinuousClock.now - started).components.seconds)s" },
            terminal: { _ in "\(text) \((ContinuousClock.now - started).components.seconds)s" })
    }

    /// A warning on a line of its own (`sentinel: warning: heal: …`), between progress lines.
    func warn(_ message: String) {
        reporter.interject("sentinel: warning: heal: \(DisplayText.escaped(message))\n")
    }

    func clear() {
        reporter.stop()
    }
}
