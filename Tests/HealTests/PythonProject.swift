import Foundation
import Git
import Heal
import Support

/// A throwaway Python project on disk and Debian's python3 to run its tests, for the tracer's
/// end-to-end tests (on the host, no sandbox).
struct PythonProject {
    static let python = "/usr/bin/python3"

    /// Debian's python3 exists and imports pytest.
    static let hasPytest: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        return (try? run([python, "-c", "import pytest"], in: "/", environment: [:]).status) == 0
    }()

    let root: String
    let pluginDirectory: String

    /// Writes `files` (path → text) under a new temporary directory, and the plugin beside it in
    /// a read-only directory.
    init(files: [String: String]) throws {
        let base = try ScratchDirectory.make(prefix: "heal-trace")
        root = base + "/project"
        pluginDirectory = base + "/plugin"
        for (path, text) in files {
            let file = root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: false, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: pluginDirectory, withIntermediateDirectories: true)
        try CoverageTracer.install(into: pluginDirectory)
        try TestTimeLimit.install(into: pluginDirectory)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: pluginDirectory)
    }

    func remove() {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: pluginDirectory)
        try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent)
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: root + "/" + path, encoding: .utf8) }

    func write(_ path: String, _ text: String) throws { try text.write(toFile: root + "/" + path, atomically: false, encoding: .utf8) }

    /// Runs `python3 ARGS` in the project with the plugin on PYTHONPATH; `addopts` goes into
    /// PYTEST_ADDOPTS. Returns the exit status and stdout and stderr together.
    func pytest(
        _ arguments: [String], addopts: String? = nil, traced: Bool = true, in subdirectory: String? = nil,
        environment extra: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": root, "PYTHONDONTWRITEBYTECODE": "1", "LC_ALL": "C.UTF-8"]
        // The project's own directory too, for runs from a subdirectory.
        environment["PYTHONPATH"] = traced ? pluginDirectory + ":" + root : root
        if let addopts { environment["PYTEST_ADDOPTS"] = addopts }
        environment.merge(extra) { $1 }
        let directory = subdirectory.map { root + "/" + $0 } ?? root
        return try Self.run(
            [Self.python, "-m", "pytest", "-p", "no:cacheprovider"] + arguments, in: directory, environment: environment)
    }

    static func run(_ command: [String], in directory: String, environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
