#if canImport(Glibc)
    import Glibc
#endif
import Sandbox
import ScanCore
import Support
import Synchronization

/// What a proof starts (the application, its database), running in its sandbox (profile `app`,
/// a discarded writable copy of `root`, the proof's network pod) on a thread of its own until
/// `stop()`. What it printed and how it ended explain an application that never answered.
final class ApplicationRun: Sendable {
    /// The sandbox profile it runs under.
    static let profile = "app"

    private let handle = LaunchHandle()
    private let state = Outcome()
    private final class Outcome: Sendable {
        let value = Mutex<Result<RunResult, any Error>?>(nil)
    }
    private let thread: Mutex<pthread_t?> = Mutex(nil)

    /// Starts `command` over `root` (in `directory` of it) in `pod`, for at most `seconds`; `onEnd` is told when it
    /// ends before `stop()` (it crashed, or never served). Throws when its profile cannot be
    /// found or its thread cannot start.
    init(
        command: [String], environment: [String: String], directory: String? = nil, root: String, pod: String,
        seconds: Double, context: ScanContext, onEnd: @escaping @Sendable () -> Void
    ) throws {
        let profile = try context.sandbox.profiles.resolve(Self.profile)
        let runner = context.sandbox
        let handle = self.handle
        let state = self.state
        let workingDirectory = directory.map { LaunchPlan.workspaceMountPoint + "/" + $0 }
        let started = PosixThread.spawn(joinable: true) {
            let result = Result {
                try runner.run(
                    profile: profile, command: command, workspace: root, environment: environment,
                    timeout: seconds, pod: pod, handle: handle, workingDirectory: workingDirectory)
            }
            state.value.withLock { $0 = result }
            if handle.requestedSignal == nil { onEnd() }
        }
        guard let started else { throw SentinelError(.io, "prove: cannot start the application's thread") }
        thread.withLock { $0 = started }
    }

    /// How it ended, if it has.
    var ended: Result<RunResult, any Error>? { state.value.withLock { $0 } }

    /// Stops it (if it still runs) and waits for its sandbox to end.
    func stop() {
        handle.terminate(signal: SIGKILL)
        if let running = thread.withLock({ value -> pthread_t? in
            defer { value = nil }
            return value
        }) {
            pthread_join(running, nil)
        }
    }

    /// How it ended (its status, then the last line it wrote), or nil while it runs.
    var ending: String? {
        switch ended {
        case .none:
            return nil
        case .failure(let error):
            return "could not start: \((error as? SentinelError)?.message ?? "\(error)")"
        case .success(let run):
            let how = run.reason == .exited ? "exited with status \(run.exitCode)" : "was stopped (\(run.reason.rawValue))"
            // Its own words, shape-redacted like all that leaves the process (it may print a key).
            let output = run.stderr.isEmpty ? run.stdout : run.stderr
            let said =
                String(decoding: output.suffix(4096), as: UTF8.self)
                .split(whereSeparator: \.isNewline).last.map { ": " + Redactor().redact(String($0.prefix(300))) } ?? ""
            return how + said
        }
    }

    deinit { stop() }
}
