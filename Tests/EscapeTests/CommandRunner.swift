import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What one child process did: its status, its output, and how long it took.
struct CommandResult: Sendable {
    /// Exit status, or the signal number when `signaled`.
    var status: Int32
    var signaled: Bool
    var stdout: String
    var stderr: String
    var wallSeconds: Double
    /// True when the runner had to kill the child at its deadline.
    var timedOut: Bool

    /// A one-line summary for failure messages.
    var summary: String {
        "status=\(status)\(signaled ? " (signal)" : "")\(timedOut ? " TIMED OUT" : "") "
            + "wall=\(String(format: "%.2f", wallSeconds))s stdout=\(stdout.debugDescription) "
            + "stderr=\(String(stderr.suffix(600)).debugDescription)"
    }
}

/// Runs a program with a hard deadline, so a hung sandbox fails a test instead of hanging CI.
///
/// Built on `posix_spawn` + `waitpid`, not Foundation's `Process`: `Process` learns of the
/// exit through a socket the child inherits, so an escaped daemon holding it would make the
/// child look alive forever. Output goes to files, descriptors above 2 are closed in the child,
/// and the child leads its own process group so the deadline can kill everything it started
/// on the host.
enum CommandRunner {
    static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        currentDirectory: String? = nil,
        timeout: Double
    ) throws -> CommandResult {
        let scratch = try TemporaryDirectory(prefix: "sentinel-run")
        defer { scratch.remove() }
        let outPath = scratch.path + "/stdout"
        let errPath = scratch.path + "/stderr"
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            for fd in [input, out, err] where fd >= 0 { close(fd) }
        }
        guard input >= 0, out >= 0, err >= 0 else { throw RunnerError("cannot open output files in \(scratch.path)") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, out, 1)
        posix_spawn_file_actions_adddup2(&actions, err, 2)
        if let closeFrom = SpawnExtensions.closeFrom { _ = closeFrom(&actions, 3) }
        if let currentDirectory {
            guard let chdir = SpawnExtensions.chdir else { throw RunnerError("posix_spawn cannot chdir here") }
            _ = chdir(&actions, currentDirectory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = CStringArray([executable] + arguments)
        let envp = CStringArray(environmentList)
        defer {
            argv.free()
            envp.free()
        }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        guard spawned == 0 else { throw RunnerError("posix_spawn \(executable): errno \(spawned)") }

        var status: Int32 = 0
        var timedOut = false
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw RunnerError("waitpid: errno \(errno)") }
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            usleep(10_000)
        }
        let wall = Date().timeIntervalSince(start)
        let signal = status & 0x7f
        return CommandResult(
            status: signal == 0 ? (status >> 8) & 0xff : signal,
            signaled: signal != 0,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            wallSeconds: wall,
            timedOut: timedOut
        )
    }
}

/// glibc's `posix_spawn` extensions, which Swift's Glibc module hides (they are `_GNU_SOURCE`
/// only); looked up at run time, nil where the C library lacks them.
enum SpawnExtensions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias Chdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let closeFrom: CloseFrom? = lookup("posix_spawn_file_actions_addclosefrom_np")
    static let chdir: Chdir? = lookup("posix_spawn_file_actions_addchdir_np")

    private static func lookup<T>(_ name: String) -> T? {
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: T.self)
    }
}

/// A NULL-terminated `char *[]` for exec-style calls; `free()` releases it.
struct CStringArray {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

    init(_ strings: [String]) {
        pointers = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointers[index] = strdup(string) }
        pointers[strings.count] = nil
    }

    func free() {
        var index = 0
        while let string = pointers[index] {
            Glibc.free(string)
            index += 1
        }
        pointers.deallocate()
    }
}

/// A failure of the test machinery itself (not of the thing under test).
struct RunnerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A directory made with `mkdtemp` and removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let path: String

    init(prefix: String) throws {
        var template = Array("\(NSTemporaryDirectory())/\(prefix)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw RunnerError("mkdtemp failed: errno \(errno)") }
        let bytes = template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        path = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "//", with: "/")
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
