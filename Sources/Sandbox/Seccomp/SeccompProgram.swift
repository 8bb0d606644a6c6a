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

    /// An OCI/Docker seccomp JSON profile: read and checked here (`OCISeccompReader`), compiled
    /// by libseccomp in C from the rules it resolved.
    public static func oci(path: String) throws -> SeccompProgram {
        try compile(OCISeccompReader.read(path: path), source: path)
    }

    /// Compiles a resolved OCI profile; `source` names its file in errors.
    static func compile(_ profile: OCISeccompProfile, source: String) throws -> SeccompProgram {
        // Every syscall name in one NUL-separated buffer the C rules point into during the call
        // (a leading NUL keeps it non-empty, so it always has a base address).
        var names: [CChar] = [0]
        var offsets: [Int] = []
        offsets.reserveCapacity(profile.rules.count)
        for rule in profile.rules {
            offsets.append(names.count)
            names += rule.syscall.utf8.map { CChar(bitPattern: $0) }
            names.append(0)
        }
        let program = SeccompProgram()
        var message = [CChar](repeating: 0, count: 512)
        let defaultAction = profile.defaultAction.code
        let status = names.withUnsafeBufferPointer { buffer in
            let rules = profile.rules.indices.map { index in
                cRule(profile.rules[index], name: buffer.baseAddress! + offsets[index])
            }
            return sbx_seccomp_oci(
                source, defaultAction.action, defaultAction.errno, rules, rules.count, program.filter, &message,
                message.count)
        }
        guard status == 0 else { throw SentinelError(.invalidInput, String(nulTerminated: message)) }
        return program
    }

    /// The C launcher's form of `rule`, naming its syscall by `name`.
    private static func cRule(_ rule: OCISeccompProfile.Rule, name: UnsafePointer<CChar>) -> sbx_oci_rule {
        var result = sbx_oci_rule()
        let code = rule.action.code
        result.name = name
        result.entry = rule.entry
        result.action = code.action
        result.errno_ret = code.errno
        result.arg_count = UInt32(rule.comparisons.count)
        // C's `args[6]` is a homogeneous tuple here, laid out as the array it was.
        let capacity = Int(SBX_OCI_MAX_ARGS)
        withUnsafeMutablePointer(to: &result.args) { tuple in
            tuple.withMemoryRebound(to: sbx_oci_arg.self, capacity: capacity) { args in
                for (slot, comparison) in rule.comparisons.prefix(capacity).enumerated() {
                    args[slot] = sbx_oci_arg(
                        index: UInt32(comparison.index), op: comparison.op.code, value: comparison.value,
                        value_two: comparison.valueTwo)
                }
            }
        }
        return result
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
