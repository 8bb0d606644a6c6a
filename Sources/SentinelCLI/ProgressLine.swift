import CLICore
import Foundation
import ScanCore
import Support
import Synchronization

/// Scan progress on stderr: one self-overwriting status line on a terminal; elsewhere (a CI
/// log) a plain line such as `sentinel: scanning 1200/5000 files (native)` at most every
/// `interval` seconds, with no escape codes.
final class ProgressLine: Sendable {
    /// How progress is shown.
    enum Mode: Sendable {
        case off
        case terminal
        case plain(interval: Double)

        /// Terminal on a TTY, plain lines elsewhere (interval from `SENTINEL_PROGRESS_INTERVAL`,
        /// seconds, 0 = every update), off when `quiet`.
        static func forStderr(quiet: Bool, environment: [String: String]) -> Mode {
            if quiet { return .off }
            if Console.stderrIsTerminal { return .terminal }
            let configured = environment["SENTINEL_PROGRESS_INTERVAL"].flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil }
            return .plain(interval: configured ?? ProgressLine.defaultInterval)
        }
    }

    /// Seconds between plain lines unless `SENTINEL_PROGRESS_INTERVAL` says otherwise.
    static let defaultInterval = 5.0

    private let mode: Mode
    private struct State {
        var shown = false
        var lastPlain = ContinuousClock.now
    }
    private let state = Mutex(State())

    init(mode: Mode) {
        self.mode = mode
    }

    /// Terminal line on a TTY, plain lines elsewhere, nothing when `quiet`; the plain interval
    /// comes from `SENTINEL_PROGRESS_INTERVAL` (seconds, 0 = every update) when it is a number.
    static func forStderr(quiet: Bool, environment: [String: String]) -> ProgressLine {
        ProgressLine(mode: .forStderr(quiet: quiet, environment: environment))
    }

    func show(_ event: ScanProgress) {
        switch mode {
        case .off: return
        case .terminal: showOnTerminal(event)
        case .plain(let interval):
            guard case .file(let tool, let index, let total, _) = event else { return }
            state.withLock { state in
                let now = ContinuousClock.now
                guard now - state.lastPlain >= .seconds(interval) else { return }
                state.lastPlain = now
                Console.write(2, "sentinel: scanning \(index)/\(total) files (\(tool))\n")
            }
        }
    }

    private func showOnTerminal(_ event: ScanProgress) {
        let text: String
        switch event {
        case .started(let tool, let files): text = "\(tool): scanning \(files) files"
        case .file(let tool, let index, let total, let path): text = "\(tool): \(index)/\(total) \(path)"
        case .finished(let tool, let findings): text = "\(tool): done, \(findings) findings"
        }
        state.withLock { state in
            Console.write(2, "\r\u{1B}[K" + String(DisplayText.escaped(text).prefix(120)))
            state.shown = true
        }
    }

    func clear() {
        state.withLock { state in
            if state.shown { Console.write(2, "\r\u{1B}[K") }
            state.shown = false
        }
    }
}
