#if canImport(Glibc)
    import Glibc
#endif
import Sandbox
import Support

/// The `sentinel` executable: it runs `sandbox run` and `--version` itself and replaces itself
/// (`execv`, same pid, same environment and descriptors) with `sentinel-cli` for everything
/// else, including any `sandbox run` it cannot parse, so help, usage errors and every other
/// command's text come from one parser.
///
/// Why two executables: starting `sentinel-cli` costs ~10 ms before `main` (45 shared
/// libraries, the analyses' metadata) and ArgumentParser's first parse 1.5-2.5 ms more; a
/// sandbox launch is about 3 ms of work. The lean path runs the same `SandboxRunner` on the
/// same `SandboxRunOptions`; only the parsing differs, and `SandboxRunArguments` answers only
/// where it reads exactly what ArgumentParser reads.
public enum LeanEntry {
    /// What `sentinel ARGUMENTS` does.
    public enum Route: Equatable, Sendable {
        /// `sentinel --version`.
        case version
        /// `sentinel sandbox run OPTIONS...`: the options after `run`.
        case sandboxRun([String])
        /// Anything else: `sentinel-cli` runs it.
        case full
    }

    /// The route of `arguments` (without the program name).
    public static func route(_ arguments: [String]) -> Route {
        if arguments == ["--version"] { return .version }
        if arguments.count >= 2, arguments[0] == "sandbox", arguments[1] == "run" {
            return .sandboxRun(Array(arguments.dropFirst(2)))
        }
        return .full
    }

    /// Runs `argv` (program name first) and returns the status to exit with; returns only when
    /// it ran the command itself or could not start `sentinel-cli`.
    public static func main(_ argv: [String]) -> Int32 {
        LaunchTrace.mark("start")
        switch route(Array(argv.dropFirst())) {
        case .version:
            // A constant holds no secret: written as it is, without building the redactor from
            // the environment (a fifth of this command's instructions).
            Array((SentinelVersion.current + "\n").utf8).withUnsafeBytes { _ = writeAll(1, $0) }
            return 0
        case .sandboxRun(let arguments):
            // Help, completion requests, anything unusual and every usage error: sentinel-cli
            // parses and prints them, as ever.
            guard let options = SandboxRunArguments.parse(arguments) else { return replaceWithFull(argv) }
            do {
                let reader = FullCommandLine.path(for: DataDirectory.runningExecutable()).flatMap(ExecutableIdentity.of)
                return try SandboxRunner.run(options, syntax: .jsonOnly(reader: reader))
            } catch is ProfileSyntax.Unsupported {
                // A YAML profile the run cache does not hold yet: sentinel-cli reads it (and
                // caches its document for the next launch) or says what is wrong with it.
                return replaceWithFull(argv)
            } catch let error as SentinelError {
                Console.error("sentinel: \(error.message)")
                return error.exitStatus
            } catch {
                Console.error("sentinel: \(error)")
                return 1
            }
        case .full:
            return replaceWithFull(argv)
        }
    }

    /// Execs `sentinel-cli` with `argv`; on failure prints why and returns the status.
    private static func replaceWithFull(_ argv: [String]) -> Int32 {
        let error = FullCommandLine.exec(argv, executable: DataDirectory.runningExecutable())
        Console.error("sentinel: \(error.message)")
        return error.exitStatus
    }
}

/// Where `sentinel-cli`, the full command line, lives beside the `sentinel` that runs it.
public enum FullCommandLine {
    /// The full command line's file name.
    public static let name = "sentinel-cli"

    /// Where it is looked for, in order, for a `sentinel` at `executable` (symlinks resolved):
    /// `<bindir>/sentinel-cli` (a build directory, or a copy of both binaries), then, only for an
    /// installed tree (`<prefix>/bin/sentinel`, `make install`),
    /// `<prefix>/libexec/sentinel/sentinel-cli`. The sibling comes first: a directory above the
    /// binary's own may belong to someone else. Nothing is searched on `PATH`.
    public static func candidates(for executable: String) -> [String] {
        let binDirectory = PathText.directory(of: executable)
        var paths = [binDirectory + "/" + name]
        if PathText.lastComponent(of: binDirectory) == "bin" {
            paths.append(PathText.directory(of: binDirectory) + "/libexec/sentinel/" + name)
        }
        return paths
    }

    /// The one `exec` runs for a `sentinel` at `executable`: the first candidate that exists,
    /// provided it passes ``TrustedPath`` (it and every directory above it owned by root or the
    /// effective user, writable by no one else), as `sudo` checks its plugins. Throws
    /// `SentinelError(.untrustedPath)` (exit 2) naming it and why when it does not (a later
    /// candidate is not tried: the one that would normally run is the one in question), and
    /// `SentinelError(.io)` when none exists.
    public static func locate(for executable: String?) throws(SentinelError) -> String {
        guard let executable else {
            throw SentinelError(.io, "/proc/self/exe: cannot find the running binary, so not \(name) either")
        }
        let paths = candidates(for: executable)
        guard let path = paths.first(where: { access($0, F_OK) == 0 }) else {
            let others = paths.dropFirst().map { " (nor \($0))" }.joined()
            throw SentinelError(.io, "\(paths[0]): not found\(others): every command but `sandbox run` and `--version` runs in it")
        }
        do {
            try TrustedPath.checkFile(path)
        } catch {
            throw SentinelError(.untrustedPath, "\(path): not run: \(error.message); \(TrustedPath.rule())", errno: error.errno)
        }
        return path
    }

    /// ``locate(for:)``'s answer, or nil: the one `exec` runs (and whose identity keys the profile
    /// documents it caches for the lean launcher).
    public static func path(for executable: String?) -> String? {
        try? locate(for: executable)
    }

    /// Replaces the process with ``locate(for:)``'s answer, passing `argv` and the environment on.
    /// Returns only on failure, with the error to report. By path, after the check: nobody but
    /// root and the effective user can change a path that passed it.
    public static func exec(_ argv: [String], executable: String?) -> SentinelError {
        let path: String
        do {
            path = try locate(for: executable)
        } catch {
            return error
        }
        let failure = execv(path, argv)
        return SentinelError(.io, "\(path): cannot run the full command line: \(failure)", errno: failure)
    }

    private static func execv(_ path: String, _ argv: [String]) -> Errno {
        let pointers = argv.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        _ = Glibc.execv(path, pointers)
        return .current
    }
}
