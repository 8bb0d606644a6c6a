import CLICore
import Foundation
import SCA
import ScanCore
import Support
import Synchronization

/// The one way a command shows progress, on stderr only (stdout may carry SARIF or JSON), for
/// every long phase it runs: scanners and the external tools they wait on, heal's steps, OSV
/// downloads and imports. On a terminal one self-overwriting line; elsewhere (a CI log) plain
/// `sentinel: …` lines, at most one per phase every `interval` seconds
/// (`SENTINEL_PROGRESS_INTERVAL`). A timer of its own ticks while a phase blocks (an adapter's
/// process runs, a download lasts): a phase that said nothing for `interval` seconds is shown
/// again with its time, so a long run never looks like a hang. Nothing at all with `--quiet`.
final class ProgressReporter: Sendable {
    /// How progress is shown.
    enum Mode: Sendable, Equatable {
        case off
        case terminal
        case plain(interval: Double)

        /// Off when `quiet`; a terminal line on a TTY; plain lines elsewhere, every `interval`
        /// seconds from `SENTINEL_PROGRESS_INTERVAL` when it is a number (0: every update, and a
        /// silent phase once a second), else `defaultInterval`.
        static func forStderr(quiet: Bool, environment: [String: String]) -> Mode {
            if quiet { return .off }
            if Console.stderrIsTerminal { return .terminal }
            let configured = environment["SENTINEL_PROGRESS_INTERVAL"].flatMap(Double.init).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
            return .plain(interval: configured ?? ProgressReporter.defaultInterval)
        }
    }

    /// Seconds between plain lines unless `SENTINEL_PROGRESS_INTERVAL` says otherwise.
    static let defaultInterval = 5.0
    /// A terminal line is redrawn this often (seconds), so its time moves.
    static let terminalTick = 1.0
    /// Longest terminal line drawn: a wrapped line would not be overwritten by `\r`.
    static let terminalWidth = 120

    /// What a phase says, given the whole seconds since it began.
    typealias Text = @Sendable (_ seconds: Int64) -> String

    private struct Phase {
        var plain: Text
        var terminal: Text
        let began: ContinuousClock.Instant
        var lastLine: ContinuousClock.Instant
        var lines = 0
        var touched: UInt64
    }

    private struct State {
        var phases: [String: Phase] = [:]
        var touches: UInt64 = 0
        var drawn = false
        var ticking = false
        var stopped = false
    }

    /// How this reporter shows progress.
    let mode: Mode
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// A reporter in `mode` whose output goes to `write` (by default stderr).
    init(mode: Mode, write: @escaping @Sendable (String) -> Void = { Console.write(2, $0) }) {
        self.mode = mode
        self.write = write
    }

    /// Terminal line on a TTY, plain lines elsewhere, nothing when `quiet` (see `Mode.forStderr`).
    static func forStderr(quiet: Bool, environment: [String: String]) -> ProgressReporter {
        ProgressReporter(mode: .forStderr(quiet: quiet, environment: environment))
    }

    /// Phase `key` begins, or says something new: `plain` is its CI-log line (after `sentinel: `),
    /// `terminal` its terminal line. A plain line is printed now when `announce` is set or the
    /// phase printed nothing for `interval` seconds; otherwise the timer prints the latest text.
    func report(_ key: String, announce: Bool = false, plain: @escaping Text, terminal: @escaping Text) {
        if mode == .off { return }
        let startTicker = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            let now = ContinuousClock.now
            state.touches += 1
            var phase =
                state.phases[key] ?? Phase(plain: plain, terminal: terminal, began: now, lastLine: now, touched: state.touches)
            phase.plain = plain
            phase.terminal = terminal
            phase.touched = state.touches
            switch mode {
            case .off: break
            case .terminal: draw(phase, now: now, state: &state)
            case .plain(let interval):
                if announce || now - phase.lastLine >= .seconds(interval) { printLine(&phase, now: now) }
            }
            state.phases[key] = phase
            let first = !state.ticking
            state.ticking = true
            return first
        }
        if startTicker { startTicking() }
    }

    /// Phase `key` ends. In a CI log `plain` is printed only when the phase printed a line
    /// before (a short phase leaves no trace); on a terminal `terminal` is drawn, or without
    /// it the line is erased.
    func end(_ key: String, plain: Text? = nil, terminal: Text? = nil) {
        state.withLock { state in
            guard !state.stopped, let phase = state.phases.removeValue(forKey: key) else { return }
            let seconds = Self.seconds(since: phase.began)
            switch mode {
            case .off: break
            case .terminal:
                if let terminal { drawText(terminal(seconds), state: &state) } else { erase(&state) }
            case .plain:
                if phase.lines > 0, let plain { write("sentinel: " + DisplayText.escaped(plain(seconds)) + "\n") }
            }
        }
    }

    /// Writes `line` (whole lines, shown as given: the caller escapes what came from outside)
    /// between progress lines, even with progress off; on a terminal the progress line is
    /// erased first and drawn again after it.
    func interject(_ line: String) {
        state.withLock { state in
            let wasDrawn = state.drawn
            erase(&state)
            write(line)
            if wasDrawn, !state.stopped, let latest = state.phases.values.max(by: { $0.touched < $1.touched }) {
                draw(latest, now: .now, state: &state)
            }
        }
    }

    /// Erases the terminal line (before a warning is printed); the timer draws it again.
    func clear() {
        state.withLock { state in erase(&state) }
    }

    /// Erases the terminal line and stops: the timer ends, and nothing is shown from now on.
    func stop() {
        state.withLock { state in
            erase(&state)
            state.phases = [:]
            state.stopped = true
        }
    }

    // MARK: - The timer

    /// A thread of its own, not a pool's: scanners and the heal loop may keep every worker of
    /// the shared pools busy (or blocked on a child process) for as long as they run.
    private func startTicking() {
        let period: Double
        switch mode {
        case .off: return
        case .terminal: period = Self.terminalTick
        case .plain(let interval): period = min(max(Self.silence(interval), 0.05), 1)
        }
        Thread.detachNewThread { [self] in
            while !state.withLock({ $0.stopped }) {
                Thread.sleep(forTimeInterval: period)
                tick()
            }
        }
    }

    /// After `interval` seconds of silence a phase is shown again; at 0 (every update), after one.
    private static func silence(_ interval: Double) -> Double { interval > 0 ? interval : 1 }

    private func tick() {
        state.withLock { state in
            guard !state.stopped else { return }
            let now = ContinuousClock.now
            switch mode {
            case .off: return
            case .terminal:
                if let latest = state.phases.values.max(by: { $0.touched < $1.touched }) {
                    draw(latest, now: now, state: &state)
                }
            case .plain(let interval):
                let silence = Duration.seconds(Self.silence(interval))
                for key in state.phases.keys.sorted(by: { state.phases[$0]!.began < state.phases[$1]!.began }) {
                    guard var phase = state.phases[key], now - phase.lastLine >= silence else { continue }
                    printLine(&phase, now: now)
                    state.phases[key] = phase
                }
            }
        }
    }

    // MARK: - Writing (under the lock, so lines never interleave)

    private func printLine(_ phase: inout Phase, now: ContinuousClock.Instant) {
        // Texts quote what came from outside (a file's name): shown, never obeyed.
        write("sentinel: " + DisplayText.escaped(phase.plain(Self.seconds(since: phase.began))) + "\n")
        phase.lastLine = now
        phase.lines += 1
    }

    private func draw(_ phase: Phase, now: ContinuousClock.Instant, state: inout State) {
        drawText(phase.terminal(Self.seconds(since: phase.began)), state: &state)
    }

    private func drawText(_ text: String, state: inout State) {
        write("\r\u{1B}[K" + String(DisplayText.escaped(text).prefix(Self.terminalWidth)))
        state.drawn = true
    }

    private func erase(_ state: inout State) {
        if state.drawn { write("\r\u{1B}[K") }
        state.drawn = false
    }

    private static func seconds(since instant: ContinuousClock.Instant) -> Int64 {
        (ContinuousClock.now - instant).components.seconds
    }
}

extension ProgressReporter {
    /// A scan's events as phases, one per scanner: `sentinel: scanning 1200/5000 files (native)`
    /// while files are read, `sentinel: semgrep running (45 s)` while a tool says nothing,
    /// `sentinel: zap: active scan (45 s)` in a named stage, and at the end of a phase that was
    /// shown, `sentinel: semgrep done: 12 findings in 113 s` (or `… failed after 113 s`).
    func show(_ event: ScanProgress) {
        switch event {
        case .started(let tool, let files):
            let counted = "\(files) file\(files == 1 ? "" : "s")"
            report(tool.rawValue, plain: { "\(tool) running (\($0) s)" }, terminal: { "\(tool): scanning \(counted) \($0)s" })
        case .file(let tool, let index, let total, let path):
            report(
                tool.rawValue, plain: { _ in "scanning \(index)/\(total) files (\(tool))" },
                terminal: { "\(tool): \(index)/\(total) \(path) \($0)s" })
        case .step(let tool, let step):
            report(tool.rawValue, plain: { "\(tool): \(step) (\($0) s)" }, terminal: { "\(tool): \(step) \($0)s" })
        case .finished(let tool, let findings):
            let counted = "\(findings) finding\(findings == 1 ? "" : "s")"
            end(tool.rawValue, plain: { "\(tool) done: \(counted) in \($0) s" }, terminal: { _ in "\(tool): done, \(counted)" })
        case .failed(let tool):
            end(tool.rawValue, plain: { "\(tool) failed after \($0) s" }, terminal: { _ in "\(tool): failed" })
        }
    }
}

extension ProgressReporter {
    /// One ecosystem of `sentinel db update` at `stage` (`downloading`, `importing`):
    /// `sentinel: db update: PyPI: downloading (45 s)` while it lasts. The command prints each
    /// ecosystem's result itself; `end(ecosystem)` closes the phase without a line.
    func showUpdate(of ecosystem: String, _ stage: String) {
        report(
            ecosystem, plain: { "db update: \(ecosystem): \(stage) (\($0) s)" },
            terminal: { "db update: \(ecosystem): \(stage) \($0)s" })
    }
}

extension ProgressReporter {
    /// `body` as one phase that says `what` (`sentinel: db import: reading 2 files (45 s)` while
    /// it lasts), ended with it, without a line of its own at the end.
    func during<T>(_ what: String, _ body: () throws -> T) rethrows -> T {
        report(what, plain: { "\(what) (\($0) s)" }, terminal: { "\(what) \($0)s" })
        defer { end(what) }
        return try body()
    }

    /// `updater.update(ecosystem, in: database)` with its stages shown (`showUpdate`); the
    /// phase ends with the call.
    func update(_ ecosystem: String, with updater: OSVUpdater, in database: OSVDatabase) throws -> OSVUpdater.Outcome {
        defer { end(ecosystem) }
        return try updater.update(ecosystem, in: database) { showUpdate(of: ecosystem, $0) }
    }
}
