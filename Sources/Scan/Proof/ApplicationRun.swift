#if canImport(Glibc)
    import Glibc
#endif
import Foundation
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
    private let redactor: Redactor
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
        seconds: Double, context: ScanContext, credentials: [String] = [], onEnd: @escaping @Sendable () -> Void
    ) throws {
        redactor = Self.redactor(for: environment, credentials: credentials)
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

    /// The last line of `output`, redacted whole and then cut to 300 characters (a cut first
    /// would leave a secret's head no longer of its shape); nil for none.
    static func lastWords(_ output: Data, redactor: Redactor) -> String? {
        var lines = String(decoding: output.suffix(4096), as: UTF8.self).split(whereSeparator: \.isNewline)
        // A line the 4 KiB cut went through is not shown: what it held may be a secret's tail.
        if output.count > 4096, !lines.isEmpty { lines.removeFirst() }
        guard let line = lines.last else { return nil }
        let redacted = redactor.redact(String(line))
        guard redacted.count > 300 else { return redacted }
        var cut = String(redacted.prefix(300))
        // Never half of a `<redacted>`.
        if let open = cut.range(of: "<", options: .backwards), !cut[open.lowerBound...].contains(">") {
            cut = String(cut[..<open.lowerBound])
        }
        return cut + "..."
    }

    /// What it said is redacted of the values it was given that hold credentials (a secret-named
    /// variable's, a URL's password), of the proof's `credentials` (its login's values, headers
    /// and cookies, which it may log as it receives them) and of token shapes.
    static func redactor(for environment: [String: String], credentials: [String] = []) -> Redactor {
        var secrets = credentials + environment.compactMap { Redactor.isSecretName($0.key) ? $0.value : nil }
        for value in environment.values {
            // `scheme://user:PASSWORD@host`
            guard let scheme = value.range(of: "://"), let at = value[scheme.upperBound...].firstIndex(of: "@") else { continue }
            let userinfo = value[scheme.upperBound..<at]
            if let colon = userinfo.firstIndex(of: ":") { secrets.append(String(userinfo[userinfo.index(after: colon)...])) }
        }
        return Redactor(secrets: secrets)
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
            // Its own words, redacted like all that leaves the process (it may print a key).
            return how + (Self.lastWords(run.stderr.isEmpty ? run.stdout : run.stderr, redactor: redactor).map { ": " + $0 } ?? "")
        }
    }

    deinit { stop() }
}
