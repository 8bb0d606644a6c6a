#if canImport(Glibc)
    import Glibc
#endif
import CSandbox
import Support
import Synchronization

/// A compiled seccomp program, owned by the parent and only read by the child.
public final class SeccompProgram: @unchecked Sendable {
    // Immutable after init; the child reads it through a pointer while the parent waits.
    private let filterStorage: UnsafeMutablePointer<sbx_filter>
    fileprivate var filter: UnsafeMutablePointer<sbx_filter> { filterStorage }

    private init() {
        filterStorage = .allocate(capacity: 1)
        filterStorage.initialize(to: sbx_filter())
    }

    deinit {
        sbx_filter_free(filterStorage)
        filterStorage.deallocate()
    }

    /// Number of BPF instructions.
    public var instructionCount: Int { Int(filterStorage.pointee.prog.len) }

    /// Sentinel's default policy (an allow-list under explicit denials): compiled at most once
    /// per process, and read from `SeccompProgramCache` when an earlier launch of this build
    /// stored it. `allowingOpenat2`: the variant `Profile.Seccomp.defaultWithOpenat2` names.
    public static func builtIn(allowingOpenat2: Bool = false) throws -> SeccompProgram {
        try cache.withLock { programs in
            if let cached = programs[allowingOpenat2] { return cached }
            let key = SeccompProgramCache.key(policy: allowingOpenat2 ? "default-openat2" : "default")
            let directory = key == nil ? nil : SeccompProgramCache.directory()
            if let key, let directory, let instructions = SeccompProgramCache.load(key, in: directory) {
                let program = SeccompProgram(instructions: instructions)
                programs[allowingOpenat2] = program
                return program
            }
            let program = try compileBuiltIn(allowingOpenat2: allowingOpenat2)
            if let key, let directory {
                SeccompProgramCache.store(program.instructions, key: key, in: directory)
            }
            programs[allowingOpenat2] = program
            return program
        }
    }

    /// Compiles the default policy with libseccomp, bypassing every cache.
    static func compileBuiltIn(allowingOpenat2: Bool = false) throws -> SeccompProgram {
        let program = SeccompProgram()
        var message = [CChar](repeating: 0, count: 512)
        guard sbx_seccomp_default_variant(allowingOpenat2 ? 1 : 0, program.filter, &message, message.count) == 0 else {
            throw SentinelError(.sandboxSetup, "seccomp: \(String(nulTerminated: message))")
        }
        return program
    }

    /// A program of `instructions` (read back from the cache), in memory the C side frees.
    init(instructions: [sock_filter]) {
        filterStorage = .allocate(capacity: 1)
        let copy = malloc(instructions.count * MemoryLayout<sock_filter>.stride)!.bindMemory(
            to: sock_filter.self, capacity: instructions.count)
        copy.initialize(from: instructions, count: instructions.count)
        filterStorage.initialize(to: sbx_filter(prog: sock_fprog(len: UInt16(instructions.count), filter: copy)))
    }

    /// The program's instructions, valid while this object lives.
    var instructions: UnsafeBufferPointer<sock_filter> {
        UnsafeBufferPointer(start: filterStorage.pointee.prog.filter, count: instructionCount)
    }

    /// An OCI/Docker seccomp JSON profile.
    public static func oci(path: String) throws -> SeccompProgram {
        let program = SeccompProgram()
        var message = [CChar](repeating: 0, count: 512)
        guard sbx_seccomp_oci(path, program.filter, &message, message.count) == 0 else {
            throw SentinelError(.invalidInput, String(nulTerminated: message))
        }
        return program
    }

    /// The program a profile asks for, or nil when it disables seccomp.
    public static func forProfile(_ setting: Profile.Seccomp) throws -> SeccompProgram? {
        switch setting {
        case .default: return try builtIn()
        case .defaultWithOpenat2: return try builtIn(allowingOpenat2: true)
        case .oci(let path): return try oci(path: path)
        case .disabled: return nil
        }
    }

    /// A stable pointer to the program, valid while this object lives.
    var pointer: UnsafePointer<sock_fprog> {
        UnsafeRawPointer(filterStorage).assumingMemoryBound(to: sock_fprog.self)
    }

    /// The built-in programs compiled or loaded so far, by whether `openat2` is allowed.
    private static let cache = Mutex<[Bool: SeccompProgram]>([:])
}
