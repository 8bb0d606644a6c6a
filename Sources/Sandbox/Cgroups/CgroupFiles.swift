#if canImport(Glibc)
    import Glibc
#endif
import Support

/// The one choke point for cgroupfs reads and writes, so errors name the file.
enum CgroupFiles {
    /// Writes `text` into the control file at `path` (created where it is missing: only a fake
    /// cgroupfs lacks it).
    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw SentinelError(.sandboxSetup, "cgroup: open \(path): \(Errno.current)", errno: .current)
        }
        try write(text, to: fd, path: path)
    }

    /// Writes `text` into the control file at `path` if the kernel offers it; false when it
    /// does not (an interface this kernel or configuration lacks). One open instead of a check
    /// and an open.
    static func writeIfPresent(_ text: String, to path: String) throws -> Bool {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return false }
            throw SentinelError(.sandboxSetup, "cgroup: open \(path): \(Errno.current)", errno: .current)
        }
        try write(text, to: fd, path: path)
        return true
    }

    /// Writes `text` with one `write` (a control file takes one value per call) and closes `fd`.
    private static func write(_ text: String, to fd: Int32, path: String) throws {
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw SentinelError(.sandboxSetup, "cgroup: write \(path): \(Errno.current)", errno: .current)
        }
    }

    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case .success(let count) = retryingOnInterrupt({
            buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        }), count > 0 {
            result.append(contentsOf: buffer[..<count])
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func readNumber(_ path: String) -> UInt64? {
        read(path).flatMap { UInt64($0.trimmedOfWhitespace()) }
    }

    /// The value of `key` in a flat keyed file such as `memory.events` or `cpu.stat`.
    static func keyed(_ path: String, _ key: String) -> UInt64? {
        guard let text = read(path) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0] == key { return UInt64(parts[1]) }
        }
        return nil
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The later of `path`'s change and modification times, in seconds since the epoch; nil when it is not there.
    static func changeTime(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return max(Int(info.st_ctim.tv_sec), Int(info.st_mtim.tv_sec))
    }

    /// The names in directory `path` (empty when it cannot be listed). Follows a link at the
    /// end: v1 controllers mounted together are reached through links (`cpu` → `cpu,cpuacct`).
    static func entries(of path: String) -> [String] {
        guard let directory = try? DirectoryDescriptor.workingDirectory.openDirectory(path, followingLinks: true),
            let entries = try? directory.entries()
        else { return [] }
        return entries.map(\.text)
    }

    static func pids(in path: String) -> [pid_t] {
        (read(path) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// rmdir, retried briefly: a group cannot go while its last tasks are still exiting.
    static func removeDirectory(_ path: String) {
        for attempt in 0..<50 {
            if rmdir(path) == 0 || errno == ENOENT { return }
            if errno != EBUSY { return }
            usleep(useconds_t(min(1000 * (attempt + 1), 20_000)))
        }
    }
}

import FoundationEssentials
