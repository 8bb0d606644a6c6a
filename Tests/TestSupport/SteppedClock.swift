#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// A wall clock a test steps for the processes it starts (a worker, a PostgreSQL server): the
/// preload `Tests/Fixtures/clock-shift/clock_shift.c`, compiled once per test process with the
/// toolchain's C compiler, adds the offset a file holds to every reading of the process's wall
/// clock and ends its wall-clock waits where the shifted clock says; its monotonic clock is the
/// machine's. ``step(to:)`` changes the offset at once, as `date -s` or NTP stepping the machine.
public final class SteppedClock: Sendable {
    /// The file holding the offset, which the preload reads at every reading of the clock.
    public let offsetFile: String
    /// The preload, this clock's copy.
    public let library: String

    /// The directory of this clock's files.
    private let directory: String

    /// A clock at the machine's time, its files (the offset and a copy of the preload) in a new
    /// directory in `parent`, readable to all: a server running as another user reads them, and a
    /// process that sees `parent` (a sandbox it is lent to) sees them at the same paths.
    public init(in parent: String = NSTemporaryDirectory()) throws {
        directory = parent + "/stepped-clock-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        library = directory + "/clock_shift.so"
        try FileManager.default.copyItem(atPath: try Self.compiled.get(), toPath: library)
        chmod(library, 0o755)
        offsetFile = directory + "/offset"
        try Self.write("+0\n", to: offsetFile)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// What a process needs in its environment to run on this clock.
    public var environment: [String: String] { ["LD_PRELOAD": library, "CLOCK_SHIFT_FILE": offsetFile] }

    /// Sets the clock `seconds` away from the machine's (negative: behind), at once.
    public func step(to seconds: Int) throws {
        try Self.write((seconds < 0 ? "" : "+") + String(seconds) + "\n", to: offsetFile)
    }

    /// Writes `text` whole: a new file renamed over the old, so no reading sees half an offset.
    private static func write(_ text: String, to path: String) throws {
        let scratch = path + ".new"
        try text.write(toFile: scratch, atomically: false, encoding: .utf8)
        guard chmod(scratch, 0o644) == 0, rename(scratch, path) == 0 else {
            throw SteppedClockError("cannot replace \(path): errno \(errno)")
        }
    }

    /// The preload, compiled once; the compiler's output when it fails.
    private static let compiled: Result<String, SteppedClockError> = {
        var source = URL(fileURLWithPath: #filePath)
        source.deleteLastPathComponent()
        source.deleteLastPathComponent()
        let file = source.appendingPathComponent("Fixtures/clock-shift/clock_shift.c").path
        let directory = NSTemporaryDirectory() + "clock-shift-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        let output = directory + "/clock_shift.so"
        // The Swift toolchain's clang, which every machine that builds Sentinel has. (A gcc build
        // of the same file loaded in a sandboxed worker but did not move its waits: not understood.)
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { String($0) + "/clang" }
        let compilers = (path + ["/opt/swift/usr/bin/clang", "/usr/bin/clang"]).filter { FileManager.default.isExecutableFile(atPath: $0) }
        guard let compiler = compilers.first else { return .failure(SteppedClockError("no clang on PATH or in /opt/swift/usr/bin")) }
        do {
            let run = try ProgramRun.run(compiler, ["-shared", "-fPIC", "-O2", "-o", output, file], timeout: 120)
            guard run.status == 0 else {
                return .failure(SteppedClockError("\(compiler) \(file): \(String(decoding: run.stderr, as: UTF8.self))"))
            }
        } catch {
            return .failure(SteppedClockError("\(compiler): \(error)"))
        }
        chmod(output, 0o755)
        return .success(output)
    }()
}

/// The preload did not compile, or the offset file could not be written.
public struct SteppedClockError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}
