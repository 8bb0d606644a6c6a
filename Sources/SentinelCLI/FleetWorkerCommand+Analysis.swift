import CLICore
import Fleet
import Foundation
import Heal
import Sandbox
import Store
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// `fleet worker` started as root (issue 53): the worker -- every queue row it claims, every
/// report and evidence file its jobs leave, shared heal memory, the audit chain, every clone --
/// runs as the unprivileged analysis, and root only launches. The analysis shares root's network
/// (it talks to the queue's server and serves metrics) and nothing else of root's: the state
/// directory (and the cache, with the OSV database) lent writable, the repository roots lent
/// read-only (its jobs' launches mount directories of them by root's descriptor), a scratch
/// directory of its own for its jobs' clones and heals, and root's copies of the files it needs
/// that root alone may read: the keys the operator named outside the state directory, and
/// libpq's password file and certificates (`DatabaseRelocation`).
extension FleetWorkerCommand {
    /// Root's part: returns the status the worker ended with.
    func separatedWorker(url: DatabaseURL, roots: [String]) throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let state = try StateLocation.current()
        let statePath = AnalysisSandbox.absolute(state.path)
        func inState(_ path: String) -> Bool { path.hasPrefix(statePath + "/") }
        // Made before anything is lent, so that the operator's mistakes fail here, with one line.
        let memory = try MemoryKey.resolve(file: memoryKey, environment: environment, state: state)
        for root in roots {
            // A root the sandbox cannot show (`/tmp` itself, a system tree) is the operator's to change.
            _ = try OptionValue.naming("--repository-root") { try WorkspaceDirectory(resolving: root) }
        }
        _ = try audit.open()

        // Root's directory for the worker, locked for root's life: a root worker killed with -9
        // leaves it (and its jobs' clones) behind, and the next one on this machine removes it.
        let scratchBase = try AnalysisSandbox.launcherScratchBase() ?? ScratchDirectory.defaultBase
        ScratchDirectory.sweepUnheld(in: scratchBase, prefix: "sentinel-worker-")
        let scratch = try ScratchDirectory.makeHeld(prefix: "sentinel-worker-\(getpid())-", in: scratchBase)
        defer { ScratchDirectory.remove(scratch) }
        func copied(_ path: String, as name: String) throws -> String {
            let data = try BoundedFile.read(path, limit: 1 << 20, followLinks: true)
            let copy = scratch + "/" + name
            try PreparedOutputFile(path: copy).write(data, mode: 0o600)
            return copy
        }

        var arguments = ["fleet", "worker", "--concurrency", String(concurrency), "--lease", lease.text]
        arguments += ["--job-timeout", jobTimeout.text, "--drain", drain.text, "--retry-base", retryBase.text]
        arguments += retryRules.flatMap { ["--retry", $0.text] }
        arguments += ["--name", name ?? Self.defaultName()]
        if let metrics { arguments += ["--metrics", String(metrics)] }
        if schedule { arguments.append("--schedule") }
        arguments += roots.flatMap { ["--repository-root", $0] } + dastTargets.flatMap { ["--dast-target", $0] }
        arguments += cloneHosts.flatMap { ["--clone-host", $0] } + ["--clone-timeout", cloneTimeout.text]
        if let cloneMaxSize { arguments += ["--clone-max-size", String(cloneMaxSize.bytes)] }
        // The token stays in the environment the analysis is passed (credentials), not on a command line.
        arguments += publish.arguments
        let memoryPath = AnalysisSandbox.absolute(memory.path)
        arguments += ["--memory-key", inState(memoryPath) ? memoryPath : try copied(memoryPath, as: "memory.key")]
        if let keyFile = audit.keyFile.map(AnalysisSandbox.absolute) {
            arguments += ["--audit-key-file", inState(keyFile) ? keyFile : try copied(keyFile, as: "fleet-audit.key")]
        }

        var analysis = AnalysisSandbox(
            arguments: arguments, repository: nil, workingDirectory: FileManager.default.currentDirectoryPath)
        analysis.scratchDirectory = scratch
        analysis.credentials = .passed
        analysis.passesDatabaseSettings = true
        analysis.sharesHostNetwork = true
        analysis.readOnlyTrees = roots
        analysis.concurrentLaunches = min(64, max(4, 2 * concurrency))
        analysis.forwardedSignals = 2
        analysis.signalGrace = drain.seconds + 600
        // A service: no deadline, and room for its jobs' processes.
        analysis.sandboxLimits.timeoutSeconds = nil
        analysis.sandboxLimits.memoryBytes = nil
        analysis.sandboxLimits.pids = max(1024, 256 * concurrency)
        try analysis.lendState(state, osvByDescriptor: false)
        switch url {
        case .sqlite(let path):
            let file = AnalysisSandbox.absolute(path)
            let stateDirectories = [statePath, AnalysisSandbox.absolute(state.cachePath)]
            if let directory = try FleetDatabaseDirectory.toLend(for: file, stateDirectories: stateDirectories) {
                analysis.lent.append(LentDirectory(path: directory, writable: true))
            }
            analysis.environment["SENTINEL_DATABASE_URL"] = "sqlite:" + file
        case .postgres:
            let relocation = try DatabaseRelocation.of(url, environment: environment) { keyword, path in
                try copied(path, as: "postgres-" + keyword)
            }
            if case .postgres(let text) = relocation.url { analysis.environment["SENTINEL_DATABASE_URL"] = text }
            analysis.privateReadOnly += relocation.socketDirectories
        }
        if let keyFile = environment["SENTINEL_LLM_KEY_FILE"], !keyFile.isEmpty {
            analysis.environment["SENTINEL_LLM_KEY_FILE"] = try copied(AnalysisSandbox.absolute(keyFile), as: "llm.key")
        }
        // Lends do not nest: a root lent read-only cannot hold what is lent writable.
        for lent in analysis.lent where lent.writable {
            let path = OutputPlacement.realPath(lent.path) ?? lent.path
            if let root = roots.first(where: { path == $0 || path.hasPrefix($0 + "/") || $0.hasPrefix(path + "/") }) {
                throw SentinelError(
                    .invalidInput,
                    "--repository-root \(root): holds or lies in \(path), which a worker started as root lends writable (its state or its database); keep them apart"
                )
            }
        }
        return try analysis.run()
    }
}
