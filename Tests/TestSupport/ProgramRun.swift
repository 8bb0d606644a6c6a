import Foundation

/// One program run to its end or its deadline, for tests: stdin fed from `input` while both
/// output streams are read (no pipe can fill and stall either side), killed after `timeout`
/// seconds so that a hang fails the test instead of holding the suite.
public struct ProgramRun: Sendable {
    /// The exit status (a signal's number plus 128 as `Process` reports it when killed).
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: Data
    /// Everything written to stderr.
    public var stderr: Data
    /// Whether the deadline passed and the program was killed.
    public var timedOut: Bool

    /// Runs `program` with `arguments`; `input` nil gives it /dev/null as stdin.
    public static func run(
        _ program: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil,
        directory: String? = nil, timeout: Double = 60
    ) throws -> ProgramRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        let stdin = input.map { _ in Pipe() }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin, let input {
            DispatchQueue.global().async(group: group) {
                // A program that exits without reading all of it closes the pipe: the write fails, quietly.
                try? stdin.fileHandleForWriting.write(contentsOf: input)
                try? stdin.fileHandleForWriting.close()
            }
        }
        while process.isRunning && Date() < deadline { usleep(10_000) }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        group.wait()
        return ProgramRun(status: process.terminationStatus, stdout: outData, stderr: errData, timedOut: timedOut)
    }
}
