import CLICore
import Foundation
import Heal
import Support
import Synchronization

/// Heal progress on stderr: attempt N/M, the actor, what it is doing, elapsed time. On a
/// terminal one self-overwriting line; elsewhere (a CI log) a plain `sentinel: heal: …` line at
/// each step and, while a step lasts, again every `interval` seconds, so a long verification
/// never looks like a hang.
final class HealProgressLine: Sendable {
    private let mode: ProgressLine.Mode
    private let started = ContinuousClock.now
    private struct State {
        var text: String?
        var printed = ContinuousClock.now
        var stopped = false
    }
    private let state = Mutex(State())

    init(mode: ProgressLine.Mode) {
        self.mode = mode
        // A thread of its own: the heal loop may keep every worker of the shared pools busy.
        guard case .plain(let interval) = mode, interval > 0 else { return }
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                Thread.sleep(forTimeInterval: min(interval, 1))
                repeatIfQuiet(interval: interval)
            }
        }
    }

    func show(_ event: HealProgress) {
        let text: String
        switch event {
        case .baseline: text = "baseline: running the verify command on the unchanged tree…"
        case .proposing(let actor): text = "\(actor.rawValue): proposing…"
        case .verifying(let first, let last, let limit, let actor):
            let range = first == last ? "\(first)" : "\(first)-\(last)"
            text = "attempt \(range)\(limit == Int.max ? "" : "/\(limit)") · \(actor.rawValue) · verifying…"
        }
        state.withLock { state in
            state.text = text
            state.printed = .now
            write(text)
        }
    }

    func clear() {
        state.withLock { state in
            if case .terminal = mode, state.text != nil { Console.write(2, "\r\u{1b}[2K") }
            state.text = nil
            state.stopped = true
        }
    }

    private func repeatIfQuiet(interval: Double) {
        state.withLock { state in
            guard !state.stopped, let text = state.text, ContinuousClock.now - state.printed >= .seconds(interval) else { return }
            state.printed = .now
            write(text)
        }
    }

    private func write(_ text: String) {
        // The signal's and the model's words are in it: shown, never obeyed.
        let text = DisplayText.escaped(text)
        let elapsed = (ContinuousClock.now - started).components.seconds
        switch mode {
        case .off: return
        case .terminal: Console.write(2, "\r\u{1b}[2K\(text) \(elapsed)s")
        case .plain: Console.write(2, "sentinel: heal: \(text) \(elapsed)s\n")
        }
    }
}
