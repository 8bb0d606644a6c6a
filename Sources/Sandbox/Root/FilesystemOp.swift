/// One step of building the sandbox root, performed in order by the C init before
/// `pivot_root`. Paths are host-side absolute paths under the new root.
public enum FilesystemOp: Sendable, Equatable, CustomStringConvertible {
    case mkdir(path: String, mode: UInt32)
    case mkfile(path: String, mode: UInt32)
    case symlink(target: String, path: String)
    case mount(source: String?, path: String, fstype: String?, flags: MountFlags, data: String?, optional: Bool)
    case remountBind(path: String, flags: MountFlags, optional: Bool)
    /// Mounts the plan's resolved workspace directory at `path`: the parent's detached tree,
    /// or (unprivileged) the directory re-opened without following links and checked.
    case attachWorkspace(path: String)
    /// Gives `path` an owner (ids inside the sandbox) and a mode.
    case chown(path: String, uid: UInt32, gid: UInt32, mode: UInt32)
    /// Mounts the size-limited tmpfs the parent made for an `rw` workspace's overlay upper
    /// layer (the parent keeps its own clone and commits it back after the run).
    case attachUpperLayer(path: String)
    /// Mounts the parent's detached tree of the plan's lent directory number `index` at `path`.
    case attachLent(path: String, index: Int)

    /// The step as one line for logs and tests, e.g. `mkdir /x 755`.
    public var description: String {
        switch self {
        case .mkdir(let path, let mode): return "mkdir \(path) \(String(mode, radix: 8))"
        case .mkfile(let path, let mode): return "mkfile \(path) \(String(mode, radix: 8))"
        case .symlink(let target, let path): return "symlink \(path) -> \(target)"
        case .mount(let source, let path, let fstype, let flags, let data, _):
            return "mount \(source ?? "-") \(path) \(fstype ?? "-") \(flags) \(data ?? "")"
        case .remountBind(let path, let flags, _): return "remount \(path) \(flags)"
        case .attachWorkspace(let path): return "attach workspace \(path)"
        case .chown(let path, let uid, let gid, let mode): return "chown \(path) \(uid):\(gid) \(String(mode, radix: 8))"
        case .attachUpperLayer(let path): return "attach upper layer \(path)"
        case .attachLent(let path, let index): return "attach lent directory \(index) \(path)"
        }
    }

    /// The path this step acts on.
    public var path: String {
        switch self {
        case .mkdir(let path, _), .mkfile(let path, _), .symlink(_, let path), .mount(_, let path, _, _, _, _),
            .remountBind(let path, _, _), .attachWorkspace(let path),
            .chown(let path, _, _, _), .attachUpperLayer(let path), .attachLent(let path, _):
            return path
        }
    }
}

/// `mount(2)` flags, named so plans read clearly in tests and `sandbox check`.
public struct MountFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The `MS_*` bits.
    public let rawValue: UInt
    /// Makes flags from `MS_*` bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `MS_RDONLY`: mount read-only.
    public static let readOnly = MountFlags(rawValue: 1)  // MS_RDONLY
    /// `MS_NOSUID`: ignore set-user-ID and set-group-ID bits.
    public static let noSuid = MountFlags(rawValue: 2)  // MS_NOSUID
    /// `MS_NODEV`: no access to device files.
    public static let noDev = MountFlags(rawValue: 4)  // MS_NODEV
    /// `MS_NOEXEC`: no program execution.
    public static let noExec = MountFlags(rawValue: 8)  // MS_NOEXEC
    /// `MS_BIND`: a bind mount.
    public static let bind = MountFlags(rawValue: 4096)  // MS_BIND
    /// `MS_REC`: apply to the whole subtree.
    public static let recursive = MountFlags(rawValue: 16384)  // MS_REC

    /// The flags as comma-separated mount options (`ro,nosuid`), or `-` when none.
    public var description: String {
        let names: [(MountFlags, String)] = [
            (.readOnly, "ro"), (.noSuid, "nosuid"), (.noDev, "nodev"),
            (.noExec, "noexec"), (.bind, "bind"), (.recursive, "rec"),
        ]
        let parts = names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "-" : parts.joined(separator: ",")
    }
}
