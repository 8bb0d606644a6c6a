import CSandbox

/// An OCI/Docker seccomp profile resolved for Sentinel's payload: the default action and, in the
/// file's order, one rule per syscall name of every entry that applies to a process with no
/// capabilities on this machine's architecture and kernel. `OCISeccompReader` makes it from the
/// JSON; `SeccompProgram.oci` hands it to libseccomp.
struct OCISeccompProfile: Sendable, Equatable {
    /// What the filter does with a call. Two rules with equal actions compile to the same
    /// libseccomp action (the errno of `errno` and `trace` is 0...4095).
    enum Action: Sendable, Equatable {
        case allow
        case errno(UInt16)
        case killProcess
        case killThread
        case trap
        case trace(UInt16)
        case log

        /// The action an OCI name stands for, with `errno` for the two that carry one; nil for
        /// a name libseccomp's OCI spelling does not have.
        init?(name: String, errno: UInt16) {
            switch name {
            case "SCMP_ACT_ALLOW": self = .allow
            case "SCMP_ACT_ERRNO": self = .errno(errno)
            case "SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS": self = .killProcess
            case "SCMP_ACT_KILL_THREAD": self = .killThread
            case "SCMP_ACT_TRAP": self = .trap
            case "SCMP_ACT_TRACE": self = .trace(errno)
            case "SCMP_ACT_LOG": self = .log
            default: return nil
            }
        }

        /// The C launcher's code (`enum sbx_oci_action`) and the errno it carries.
        var code: (action: UInt32, errno: UInt32) {
            switch self {
            case .allow: return (SBX_OCI_ALLOW.rawValue, 0)
            case .errno(let value): return (SBX_OCI_ERRNO.rawValue, UInt32(value))
            case .killProcess: return (SBX_OCI_KILL_PROCESS.rawValue, 0)
            case .killThread: return (SBX_OCI_KILL_THREAD.rawValue, 0)
            case .trap: return (SBX_OCI_TRAP.rawValue, 0)
            case .trace(let value): return (SBX_OCI_TRACE.rawValue, UInt32(value))
            case .log: return (SBX_OCI_LOG.rawValue, 0)
            }
        }
    }

    /// How one argument is compared (`SCMP_CMP_*`).
    enum Operator: String, Sendable, Equatable, CaseIterable {
        case notEqual = "SCMP_CMP_NE"
        case less = "SCMP_CMP_LT"
        case lessOrEqual = "SCMP_CMP_LE"
        case equal = "SCMP_CMP_EQ"
        case greaterOrEqual = "SCMP_CMP_GE"
        case greater = "SCMP_CMP_GT"
        case maskedEqual = "SCMP_CMP_MASKED_EQ"

        /// The C launcher's code (`enum sbx_oci_op`).
        var code: UInt32 {
            switch self {
            case .notEqual: return SBX_OCI_NE.rawValue
            case .less: return SBX_OCI_LT.rawValue
            case .lessOrEqual: return SBX_OCI_LE.rawValue
            case .equal: return SBX_OCI_EQ.rawValue
            case .greaterOrEqual: return SBX_OCI_GE.rawValue
            case .greater: return SBX_OCI_GT.rawValue
            case .maskedEqual: return SBX_OCI_MASKED_EQ.rawValue
            }
        }
    }

    /// One comparison of argument `index` (0...5); `valueTwo` is the mask's operand of
    /// `maskedEqual`.
    struct Comparison: Sendable, Equatable {
        var index: Int
        var op: Operator
        var value: UInt64
        var valueTwo: UInt64
    }

    /// One syscall's rule; `entry` is its index in the file's `syscalls`, for messages.
    struct Rule: Sendable, Equatable {
        var syscall: String
        var action: Action
        var comparisons: [Comparison]
        var entry: Int
    }

    /// What every call no rule matches gets.
    var defaultAction: Action
    /// The rules in the file's order, none with the default action (libseccomp refuses those).
    var rules: [Rule]
}
