#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import TestSupport

/// A `sentinel fleet` process running in the background (a worker or a scheduler), its standard
/// error (the JSON log) kept in a file the test reads while it runs.
final class FleetProcess: @unchecked Sendable {
    let process = Process()
    let logPath: String

    init(_ arguments: [String], environment: [String: String]) throws {
        logPath = NSTemporaryDirectory() + "fleet-log-" + UUID().uuidString
        FileManager.default.createFile(atPath: logPath, contents: nil)
        guard let log = FileHandle(forWritingAtPath: logPath) else { throw CocoaError(.fileWriteUnknown) }
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["fleet"] + arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try log.close()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// The JSON log lines so far, decoded.
    var events: [[String: Any]] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The log lines whose `event` is `name`.
    func events(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits up to `timeout` seconds for the process to end; its status, or nil if it still runs.
    func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }
}

/// Polls `condition` every 50 ms for up to `timeout` seconds; whether it became true.
func eventually(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}

extension CLI {
    /// The URL of a new login `role` in `group` (a `fleet init-db` role) on `server`'s database
    /// `name`, its password derived from its name.
    static func postgresLogin(_ role: String, in group: String, server: PostgresServer, database name: String) throws -> String {
        _ = try server.psql("CREATE ROLE \(role) LOGIN PASSWORD 'pw-\(role)'; GRANT \(group) TO \(role)")
        return "postgres://\(role):pw-\(role)@127.0.0.1:\(server.port)/\(name)"
    }

    /// A state directory and environment for fleet commands against `database`.
    static func fleetEnvironment(database: String) throws -> [String: String] {
        let home = NSTemporaryDirectory() + "fleet-home-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var environment = CLI.environment(home: home)
        environment["SENTINEL_DATABASE_URL"] = database
        return environment
    }

    /// A small Python project with a few findings, as a scan job's repository.
    static func fleetProject(files: Int = 3) throws -> String {
        var tree: [String: [UInt8]] = [:]
        for index in 0..<files {
            tree["module\(index).py"] = Array(
                "import subprocess\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n\nPASSWORD = 'hunter2-\(index)-longer'\n"
                    .utf8)
        }
        return try CLI.tree(tree, prefix: "fleet-project", in: fleetRepositories)
    }

    /// The directory every fleet test's projects are made in, the workers' `--repository-root`:
    /// apart from their state and databases, which a worker started as root lends writable
    /// beside its read-only roots.
    static let fleetRepositories: String = {
        let path = NSTemporaryDirectory() + "fleet-repositories-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
}
