#if canImport(Glibc)
    import Glibc
#endif
import CSandbox
import Support

/// The default seccomp program, compiled once and kept in the launcher's run cache
/// (`RunCacheFile`): libseccomp takes ~2 ms to compile its ~300 rules, at every launch of a
/// short-lived CLI. The key names the executable's build ID, the running libseccomp's version
/// and the policy, so another build or another libseccomp never reads a program it did not
/// compile. Storing keeps the newest `maximumEntries` programs: two builds launching in turn
/// (an upgrade while a fleet runs, a benchmark against an older build) would otherwise remove
/// each other's and compile at every launch. Without a build ID or a private directory nothing
/// is cached.
enum SeccompProgramCache {
    private static let magic = Array("SENTINEL-SECCOMP-2\n".utf8)
    private static let prefix = "seccomp-"
    private static let suffix = ".bpf"
    /// BPF_MAXINSNS: the kernel's own limit on a program's length.
    static let maximumInstructions = 4096
    private static let instructionSize = MemoryLayout<sock_filter>.stride
    /// Programs kept: a few builds, each with its policies (at most 32 KiB each).
    static let maximumEntries = 8

    /// The key of `policy` for this build and libseccomp (hex digits, a dash, a policy name:
    /// at most 64 characters), or nil without a build ID.
    static func key(policy: String, buildID: [UInt8]? = BuildID.current) -> [UInt8]? {
        guard let build = RunCacheFile.buildPrefix(buildID) else { return nil }
        let text = build + "-" + String(sbx_seccomp_library_version(), radix: 16) + "-" + policy
        return Array(text.utf8.prefix(RunCacheFile.keySize))
    }

    /// The directory the cache lives in: the launcher's private run directory, when it has one.
    static func directory() -> String? {
        RunCacheFile.directory()
    }

    /// The file name a program of `key` is stored under.
    static func fileName(_ key: [UInt8]) -> String {
        prefix + String(decoding: key, as: UTF8.self) + suffix
    }

    /// The program stored under `key` in `directory`, or nil when there is none this launcher
    /// may trust (see `RunCacheFile`) or it is not a whole program.
    static func load(_ key: [UInt8], in directory: String) -> [sock_filter]? {
        guard
            let body = RunCacheFile.load(
                fileName(key), magic: magic, key: key, in: directory, bodyLimit: maximumInstructions * instructionSize),
            !body.isEmpty, body.count % instructionSize == 0
        else { return nil }
        let count = body.count / instructionSize
        return body.withUnsafeBytes { raw in
            (0..<count).map { raw.loadUnaligned(fromByteOffset: $0 * instructionSize, as: sock_filter.self) }
        }
    }

    /// Stores `program` under `key` in `directory`, keeping the newest `maximumEntries`
    /// programs. Failures are ignored: the next launch compiles.
    static func store(_ program: UnsafeBufferPointer<sock_filter>, key: [UInt8], in directory: String) {
        RunCacheFile.store(
            Array(UnsafeRawBufferPointer(program)), name: fileName(key), magic: magic, key: key, in: directory,
            stale: RunCacheFile.beyondNewest(maximumEntries, prefix: prefix, suffix: suffix))
    }
}
