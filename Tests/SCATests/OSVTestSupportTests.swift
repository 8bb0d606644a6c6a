import Foundation
import Testing
import TestSupport

/// Shared paths and helpers for the SCA database tests (no tests of its own).
enum Fixtures {
    /// The package root, from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `<package root>/../shared/corpora/osv`, read in place.
    static let corpora = Corpora.root.appendingPathComponent("osv")
    static let pypa = corpora.appendingPathComponent("pypa/vulns").path
    static let rustsec = corpora.appendingPathComponent("rustsec/crates").path
    static let golang = corpora.appendingPathComponent("golang/data/osv").path

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Whether `python3 -c "import MODULE"` succeeds.
    static func pythonHas(_ module: String) -> Bool {
        (try? run("/usr/bin/env", ["python3", "-c", "import \(module)"]).status) == 0
    }

    /// Runs a program, returning its status and standard output.
    static func run(_ program: String, _ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let inPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let input {
            // Write on another thread so a large output cannot deadlock against a large input.
            let handle = inPipe.fileHandleForWriting
            let data = Data(input.utf8)
            Thread.detachNewThread {
                handle.write(data)
                try? handle.close()
            }
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let hasPackaging = pythonHas("packaging.version")
    static let hasZip = FileManager.default.isExecutableFile(atPath: "/usr/bin/zip")
}
