import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `--status-json` object of DESIGN §3, the fields the battery checks.
struct SandboxStatus: Sendable {
    var exitCode: Int?
    var signal: Int?
    var reason: String?
    var cpuMs: Int?
    /// Denied egress records per `host:port`.
    var egressDenied: [String: Int] = [:]

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        exitCode = object["exitCode"] as? Int
        signal = object["signal"] as? Int
        reason = object["reason"] as? String
        cpuMs = object["cpuMs"] as? Int
        for record in object["egress"] as? [[String: Any]] ?? [] where record["allowed"] as? Bool == false {
            egressDenied["\(record["host"] ?? "?"):\(record["port"] ?? "?")", default: 0] += 1
        }
    }
}

/// One `sentinel sandbox run`: the process result, the probe's verdict, the status file.
struct SandboxRun: Sendable {
    var result: CommandResult
    var output: ProbeOutput?
    var status: SandboxStatus?

    var summary: String { "\(result.summary) status-json=\(status.map { "\($0)" } ?? "none")" }
}

/// A throwaway workspace holding a copy of the probe, and the way to run it confined:
/// `sentinel sandbox run --workspace DIR [flags] -- /workspace/sentinel-probe VERB ARGS...`.
///
/// The workspace is mounted at `/workspace` inside and is the working directory there.
struct SandboxHarness: Sendable {
    /// The probe's path inside the sandbox.
    static let probeInside = "/workspace/sentinel-probe"

    let workspace: TemporaryDirectory
    /// Host-side scratch for status files, outside the workspace so the sandbox cannot see it.
    let scratch: TemporaryDirectory

    var path: String { workspace.path }

    init() throws {
        for binary in [PackagePaths.sentinel, PackagePaths.probe]
        where !FileManager.default.isExecutableFile(atPath: binary) {
            throw RunnerError("\(binary) is not built: run `swift build --build-tests` first")
        }
        workspace = try TemporaryDirectory(prefix: "sentinel-escape-ws")
        scratch = try TemporaryDirectory(prefix: "sentinel-escape-scratch")
        // The sandboxed uid is unprivileged: the workspace and the probe must be world-readable.
        chmod(workspace.path, 0o755)
        try FileManager.default.copyItem(atPath: PackagePaths.probe, toPath: workspace.path + "/sentinel-probe")
        chmod(workspace.path + "/sentinel-probe", 0o755)
        if let runtime = PackagePaths.swiftRuntime {
            try FileManager.default.copyItem(atPath: runtime, toPath: workspace.path + "/libswiftCore.so")
        }
    }

    func remove() {
        workspace.remove()
        scratch.remove()
    }

    /// Runs the probe with `arguments` inside the sandbox.
    func probe(
        _ arguments: [String], flags: [String] = [], environment: [String: String]? = nil,
        timeout: Double = 30
    ) throws -> SandboxRun {
        try command([Self.probeInside] + arguments, flags: flags, environment: environment, timeout: timeout)
    }

    /// Runs any command inside the sandbox; `viaShellHoldingFD7` launches `sentinel` through a
    /// shell that first opens fd 7, so the launcher inherits a descriptor it must not pass on.
    func command(
        _ command: [String], flags: [String] = [], environment: [String: String]? = nil,
        timeout: Double = 30, viaShellHoldingFD7: Bool = false
    ) throws -> SandboxRun {
        let statusPath = scratch.path + "/status-\(UUID().uuidString).json"
        let sentinelArguments =
            ["sandbox", "run", "--workspace", workspace.path] + flags
            + ["--status-json", statusPath, "--"] + command
        let result: CommandResult
        if viaShellHoldingFD7 {
            result = try CommandRunner.run(
                "/bin/sh",
                ["-c", "exec 7</etc/hostname; exec \"$0\" \"$@\"", PackagePaths.sentinel] + sentinelArguments,
                environment: environment, timeout: timeout)
        } else {
            result = try CommandRunner.run(
                PackagePaths.sentinel, sentinelArguments, environment: environment, timeout: timeout)
        }
        return SandboxRun(result: result, output: ProbeOutput(result.stdout), status: SandboxStatus(path: statusPath))
    }

    /// Creates one harness for the duration of `body`.
    static func with<T>(_ body: (SandboxHarness) throws -> T) throws -> T {
        let harness = try SandboxHarness()
        defer { harness.remove() }
        return try body(harness)
    }
}

/// One attempt of a table: the probe's arguments, the denials that count as held, extra flags.
struct Attempt: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    /// Acceptable names after `DENIED verb`: errnos, or a signal such as `SIGSYS`.
    let expected: Set<String>
    let flags: [String]

    init(_ arguments: String..., denied expected: String..., flags: [String] = []) {
        self.arguments = arguments
        self.expected = Set(expected)
        self.flags = flags
    }

    var testDescription: String {
        (flags + arguments).joined(separator: " ") + " → " + expected.sorted().joined(separator: "|")
    }
}

/// Where the battery may run: it needs root to create the sandbox's namespaces and cgroups.
enum BatteryGate {
    static var enabled: Bool { TestHost.isRoot && TestHost.userNamespaces }
}
