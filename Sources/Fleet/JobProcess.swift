import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// One `sentinel` run for a job, in its own process: a scan that crashes or hangs takes only its
/// job with it. `setpriv --pdeathsig KILL` ties it to the worker, so a worker killed with -9 leaves
/// no orphan running a job another worker will retry.
final class JobProcess: @unchecked Sendable {
    private let process = Process()
    /// Signalled when the run ends (monotonic: a step of the wall clock neither stretches nor cuts a wait).
    private let ended = MonotonicSemaphore()
    /// Standard output and error go to files in the job's private directory (never a pipe a
    /// chatty child could fill).
    let outputPath: String
    let errorPath: String

    /// Variables a job never inherits: the worker's database credentials.
    static let withheld = WithheldVariables.database

    init(executable: String, arguments: [String], directory: String, scratch: String, environment: [String: String]) throws {
        outputPath = scratch + "/stdout"
        errorPath = scratch + "/stderr"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "--", executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment.filter { !Self.withheld.contains($0.key) }
        try PreparedOutputFile(path: outputPath).write(Data(), mode: 0o600)
        try PreparedOutputFile(path: errorPath).write(Data(), mode: 0o600)
        guard let out = FileHandle(forWritingAtPath: outputPath), let err = FileHandle(forWritingAtPath: errorPath)
        else { throw SentinelError(.io, "\(scratch): cannot create the job's output files") }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let ended = self.ended
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            throw SentinelError(.io, "\(executable): cannot start: \(error)")
        }
        try? out.close()
        try? err.close()
    }

    /// Waits up to `seconds` for the run to end; true when it has.
    func wait(seconds: Double) -> Bool {
        ended.wait(seconds: seconds)
    }

    /// How it ended: the exit status, or 128+N for signal N.
    var status: Int32 {
        process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; returns when it has ended.
    func stop(grace: Double = 5) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if !wait(seconds: grace) {
            kill(process.processIdentifier, SIGKILL)
            _ = wait(seconds: 60)
        }
        ended.signal()
    }

    /// The last line of standard error (a failure's reason), at most 300 characters, redacted.
    func lastErrorLine() -> String {
        let data = (try? BoundedFile.read(errorPath, limit: 1 << 20, followLinks: false)) ?? Data()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        return Redactor.process.redact(String(line.prefix(300)))
    }
}
