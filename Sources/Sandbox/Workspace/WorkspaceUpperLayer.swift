#if canImport(Glibc)
    import Glibc
#endif
import CSandbox
import Support

/// The size-limited tmpfs an `rw` workspace's payload writes to (the overlay's upper layer),
/// made by the root parent before the launch (`sbx_workspace_upper`). The parent keeps its own
/// detached mount of it, which outlives the sandbox's mount namespace, and commits the layer to
/// the workspace after the run (`WorkspaceCommit`); the init attaches a clone.
final class WorkspaceUpperLayer {
    /// The parent's detached mount (the tmpfs root).
    let mount: DirectoryDescriptor
    /// The clone the init attaches at `/.sentinel/overlay` in the new root.
    private(set) var tree: Int32
    /// The tmpfs's size: also the most the commit writes to the workspace.
    let size: UInt64

    /// Upper layers with no size limit still get one: a tmpfs's default is half the host's RAM.
    init(sizeLimit: UInt64?) throws {
        let size = sizeLimit ?? Profile.minimal.limits.workspaceSizeBytes ?? 256 << 20
        var keep: Int32 = -1
        var tree: Int32 = -1
        var failure = sbx_failure()
        guard sbx_workspace_upper(size, RootBuilder.inodeLimit(forSize: size), &keep, &tree, &failure) == 0 else {
            throw SentinelError.sandboxSetup(failure, detail: "workspace upper layer")
        }
        mount = DirectoryDescriptor(taking: keep)
        self.tree = tree
        self.size = size
    }

    /// The init has attached its clone: the parent's copy of it is no longer needed.
    func closeTree() {
        if tree >= 0 { close(tree) }
        tree = -1
    }

    /// Commits the upper directory to `directory` (see `WorkspaceCommit`).
    func commit(to directory: WorkspaceDirectory) throws -> WorkspaceCommit.Summary {
        let upper: DirectoryDescriptor
        do throws(Errno) {
            upper = try mount.openDirectory("upper", beneath: true)
        } catch {
            throw WorkspaceCommit.failure(".", "openat2(upper)", error)
        }
        return try WorkspaceCommit.apply(upper: upper, to: directory, byteLimit: size)
    }

    deinit { closeTree() }
}
