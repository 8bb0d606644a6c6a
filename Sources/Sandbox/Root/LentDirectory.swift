import Support

/// A host directory a root launcher lends its payload at the directory's own path: cloned
/// without its submounts, `nosuid,nodev`, and idmapped so that the payload acts on it as the
/// directory's owner does (root's state directory for Sentinel's own unprivileged analysis).
/// Files the payload creates there are stored as that owner. Only a root launcher lends, and
/// only its own choices: the analysis can never ask for one (`LaunchBroker` carries none).
public struct LentDirectory: Sendable, Hashable {
    /// The host directory (or a descriptor path, `/proc/self/fd/N`, of one the launcher holds).
    public var path: String
    /// Where it appears inside: its own path unless said otherwise.
    public var mountPoint: String
    /// Whether the payload may write it (else read-only).
    public var writable: Bool

    /// Lends `path` at `mountPoint` (default: `path`), read-only unless `writable`.
    public init(path: String, mountPoint: String? = nil, writable: Bool) {
        self.path = path
        self.mountPoint = mountPoint ?? path
        self.writable = writable
    }
}

/// A lent directory as the plan mounts it: resolved once and held open, with its id shift.
public struct LentMount: Sendable, Equatable {
    /// The directory, resolved and held open by the parent.
    public var directory: WorkspaceDirectory
    /// Where it appears inside (its host path).
    public var mountPoint: String
    /// Whether the payload may write it.
    public var writable: Bool
    /// The shift that shows the owner's files as the payload's.
    public var idShift: WorkspaceMount.IDShift?
}

extension LaunchPlan {
    /// Trees a lent directory may not be at, in or over: the launcher's own and the system's
    /// pseudo filesystems.
    static let unlendable = ["/", "/proc", "/sys", "/dev", "/.sentinel"]

    /// `request`'s lent directories resolved for a launcher with host uid `hostUID` whose
    /// payload is `maps`; throws `.invalidInput` for one an unprivileged launcher cannot lend,
    /// one that overlaps the workspace or another, or a writable one under a profile without
    /// the built-in seccomp filter (which keeps setuid files and device nodes off the host).
    static func lentMounts(
        _ request: LaunchRequest, profile: Profile, hostUID: UInt32, maps: IdentityMaps
    ) throws -> [LentMount] {
        guard !request.lent.isEmpty else { return [] }
        guard hostUID == 0 else {
            throw SentinelError(.invalidInput, "\(request.lent[0].path): only a root launcher lends a directory")
        }
        var taken = request.workspace == nil ? [] : [PathText.lexicallyNormalized(request.workspaceMountPoint)]
        var mounts: [LentMount] = []
        for lent in request.lent {
            guard lent.mountPoint.hasPrefix("/") else {
                throw SentinelError(.invalidInput, "\(lent.mountPoint): a lent directory must be an absolute path")
            }
            let inside = PathText.lexicallyNormalized(lent.mountPoint)
            if let tree = unlendable.first(where: { inside == $0 || ($0 != "/" && inside.hasPrefix($0 + "/")) }) {
                throw SentinelError(.invalidInput, "\(lent.mountPoint): cannot be lent (it is or lies in \(tree))")
            }
            if let other = taken.first(where: { inside == $0 || inside.hasPrefix($0 + "/") || $0.hasPrefix(inside + "/") }) {
                throw SentinelError(.invalidInput, "\(lent.mountPoint): a lent directory may not overlap \(other)")
            }
            if lent.writable, profile.seccomp != .default {
                throw SentinelError(
                    .invalidInput, "profile \(profile.name): a writable lent directory needs seccomp: default")
            }
            let directory = try WorkspaceDirectory(
                resolving: lent.path == lent.mountPoint ? inside : lent.path, asWorkspace: false)
            var mount = LentMount(directory: directory, mountPoint: inside, writable: lent.writable, idShift: nil)
            if directory.ownerUID != maps.hostUID || directory.ownerGID != maps.hostGID {
                mount.idShift = .init(
                    diskUID: directory.ownerUID, diskGID: directory.ownerGID, shownUID: maps.hostUID, shownGID: maps.hostGID)
            }
            mounts.append(mount)
            taken.append(inside)
        }
        return mounts
    }
}
