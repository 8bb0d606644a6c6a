#if canImport(Glibc)
    import Glibc
#endif
import Support

/// Builds the ordered filesystem operations for the sandbox root: bubblewrap's model of a
/// tmpfs root populated with read-only binds, masks, a fresh /proc and a minimal /dev.
struct RootBuilder {
    let root: String
    private(set) var ops: [FilesystemOp] = []
    private var directories: Set<String> = ["/"]
    private var haveEmptyFile = false

    init(root: String) {
        self.root = root
    }

    /// The empty, unreadable file bound over hidden host files.
    private var emptyFile: String { root + "/.sentinel/empty" }

    private static let deviceNodes = ["null", "zero", "full", "random", "urandom", "tty"]
    private static let readOnlyProcEntries = ["sys", "sysrq-trigger", "irq", "bus", "fs"]
    /// Docker's `maskedPaths` under /proc, plus what else leaks kernel addresses, memory layout
    /// or hardware: files are covered by a read-only empty file, directories by an empty
    /// read-only tmpfs. Entries this kernel lacks are skipped.
    static let maskedProcEntries = [
        "acpi", "asound", "interrupts", "kcore", "keys", "latency_stats", "timer_list", "timer_stats",
        "sched_debug", "scsi", "kallsyms", "slabinfo", "pagetypeinfo", "vmallocinfo", "config.gz", "iomem",
        "ioports",
    ]

    /// `terminal`: mount a private devpts at /dev/pts (/dev/ptmx leads there) for `-t`.
    mutating func addStandardTree(profile: Profile, extraReadOnly: [String], terminal: Bool = false) throws {
        ensureDirectory("/.sentinel", mode: 0o700)
        // Binds and tmpfs mounts go shallowest first, so `--bind-ro /tmp/x` lands inside the
        // /tmp tmpfs instead of being covered by it.
        enum Entry { case bind(String, optional: Bool), tmpfs(String, UInt64) }
        func depth(_ path: String) -> Int { path.split(separator: "/").count }
        var entries: [(depth: Int, path: String, entry: Entry)] = (profile.filesystem.readOnly + extraReadOnly).map {
            (depth($0), $0, .bind($0, optional: !extraReadOnly.contains($0)))
        }
        entries += profile.filesystem.tmpfs.map { (depth($0.key), $0.key, .tmpfs($0.key, $0.value)) }
        entries.sort { ($0.depth, $0.path) < ($1.depth, $1.path) }
        for (_, _, entry) in entries {
            switch entry {
            case .bind(let path, let optional):
                try bindReadOnly(host: path, optional: optional)
            case .tmpfs(let path, let size):
                ensureDirectory(path, mode: 0o1777)
                ops.append(
                    .mount(
                        source: "tmpfs", path: root + path, fstype: "tmpfs", flags: [.noSuid, .noDev],
                        data: "size=\(size),mode=1777", optional: false))
            }
        }
        for path in profile.filesystem.hidden {
            hide(path)
        }
        addProc()
        addDev(terminal: terminal)
    }

    /// Mounts the workspace the parent resolved (never a path string: see `WorkspaceDirectory`).
    /// `upperRoot`: owner (inside ids) and mode the overlay's top directory gets, so that it looks
    /// like the workspace directory to the payload; nil leaves it the init's. `sizeLimit` bounds
    /// the tmpfs holding the upper layer. `upperFromParent` (`rw` under a root launcher): that
    /// tmpfs is the parent's (`.attachUpperLayer`), which commits it back after the run.
    mutating func addWorkspace(
        mode: Profile.WorkspaceMode, at inside: String = LaunchPlan.workspaceMountPoint,
        upperRoot: (uid: UInt32, gid: UInt32, mode: UInt32)? = nil,
        sizeLimit: UInt64? = nil, upperFromParent: Bool = false
    ) {
        ensureDirectory(inside, mode: 0o755)
        if mode == .rw && !upperFromParent {
            ops.append(.attachWorkspace(path: root + inside))
            ops.append(.remountBind(path: root + inside, flags: [.noSuid, .noDev], optional: false))
            return
        }
        // The lower layer is attached inside the new root first, so overlayfs is given only
        // paths this launcher made.
        let layer = "/.sentinel/overlay"
        ensureDirectory(layer, mode: 0o700)
        if mode == .ro {
            addReadOnlyOverlay(layer: layer, at: inside)
            return
        }
        if upperFromParent {
            ops.append(.attachUpperLayer(path: root + layer))
        } else {
            let limit = sizeLimit.map { ",size=\($0),nr_inodes=\(Self.inodeLimit(forSize: $0))" } ?? ""
            ops.append(
                .mount(
                    source: "tmpfs", path: root + layer, fstype: "tmpfs", flags: [.noSuid, .noDev],
                    data: "mode=0700" + limit, optional: false))
        }
        for directory in ["lower", "upper", "work"] {
            ops.append(.mkdir(path: root + layer + "/" + directory, mode: 0o755))
        }
        if let upperRoot {
            ops.append(
                .chown(
                    path: root + layer + "/upper", uid: upperRoot.uid, gid: upperRoot.gid,
                    mode: upperRoot.mode))
        }
        ops.append(.attachWorkspace(path: root + layer + "/lower"))
        ops.append(.remountBind(path: root + layer + "/lower", flags: [.readOnly, .noSuid, .noDev], optional: false))
        let data = "lowerdir=\(root + layer)/lower,upperdir=\(root + layer)/upper,workdir=\(root + layer)/work,userxattr"
        ops.append(
            .mount(
                source: "overlay", path: root + inside, fstype: "overlay", flags: [.noSuid, .noDev],
                data: data, optional: false))
    }

    /// Attaches lent directory number `index` (the parent's detached tree) at its own path.
    mutating func addLent(at path: String, index: Int) {
        ensureDirectory(path, mode: 0o755)
        ops.append(.attachLent(path: root + path, index: index))
    }

    /// `ro`: the tree shown through an overlay with no upper layer (lower layers only, which is
    /// read-only by construction; the empty second one is there because overlayfs needs two
    /// without an upper layer). The payload may own what it sees (the idmapped tree) yet gets
    /// overlay inodes, not the host's: a socket there connects to nothing, a FIFO is a pipe of
    /// its own, a lease does not reach the host's file.
    private mutating func addReadOnlyOverlay(layer: String, at inside: String) {
        ops.append(.mkdir(path: root + layer + "/lower", mode: 0o755))
        ops.append(.mkdir(path: root + layer + "/empty", mode: 0o755))
        ops.append(.attachWorkspace(path: root + layer + "/lower"))
        ops.append(.remountBind(path: root + layer + "/lower", flags: [.readOnly, .noSuid, .noDev], optional: false))
        ops.append(
            .mount(
                source: "overlay", path: root + inside, fstype: "overlay", flags: [.readOnly, .noSuid, .noDev],
                data: "lowerdir=\(root + layer)/lower:\(root + layer)/empty", optional: false))
    }

    /// Inodes for an upper layer of `size` bytes: one per page (a file with data takes at least
    /// one), at least 1024 and at most 1M, so empty files cannot pin unbounded kernel memory.
    static func inodeLimit(forSize size: UInt64) -> UInt64 {
        min(max(size / 4096, 1024), 1 << 20)
    }

    /// Symlinks (merged-/usr `/bin -> usr/bin`) are recreated; directories and files are bound.
    private mutating func bindReadOnly(host path: String, optional: Bool) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if optional { return }
            throw SentinelError(.invalidInput, "\(path): cannot bind: \(Errno.current)")
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink(path, &buffer, buffer.count - 1)
            guard length > 0 else { return }
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            ensureDirectory(parent(of: path), mode: 0o755)
            ops.append(.symlink(target: target, path: root + path))
            return
        }
        if type == S_IFDIR {
            ensureDirectory(path, mode: 0o755)
        } else {
            ensureDirectory(parent(of: path), mode: 0o755)
            ops.append(.mkfile(path: root + path, mode: 0o644))
        }
        // Recursive: a host path with mounts below it (Docker and Podman bind /etc/hosts and
        // /etc/resolv.conf) cannot be bound alone inside a user namespace (EINVAL: the kernel
        // will not uncover what a locked mount hides), and every mount of the tree is read-only.
        ops.append(
            .mount(source: path, path: root + path, fstype: nil, flags: [.bind, .recursive], data: nil, optional: optional))
        ops.append(.remountBind(path: root + path, flags: [.readOnly, .noSuid, .noDev, .recursive], optional: optional))
    }

    private mutating func hide(_ path: String) {
        mask(host: path)
    }

    /// Covers `path` (its type read from the host's copy): a directory with an empty read-only
    /// tmpfs, a file with the empty file bound read-only. Every mask is read-only, so no mask is
    /// a writable alias of the others (they share the empty file's inode): a file's mask is a
    /// bind of the empty file's own read-only mount, and a bind takes the flags of the mount it
    /// copies, so one remount serves every mask (two syscalls fewer per mask on the way to the
    /// payload; a test reads the flags back from inside).
    private mutating func mask(host path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR {
            ops.append(
                .mount(
                    source: "tmpfs", path: root + path, fstype: "tmpfs",
                    flags: [.readOnly, .noSuid, .noDev, .noExec], data: "size=0,mode=000", optional: true))
        } else if type == S_IFREG {
            ensureEmptyFile()
            ops.append(
                .mount(
                    source: emptyFile, path: root + path, fstype: nil, flags: [.bind], data: nil,
                    optional: true))
        }
    }

    private mutating func addProc() {
        ensureDirectory("/proc", mode: 0o555)
        ops.append(
            .mount(
                source: "proc", path: root + "/proc", fstype: "proc", flags: [.noSuid, .noDev, .noExec],
                data: nil, optional: false))
        for entry in Self.readOnlyProcEntries {
            let path = root + "/proc/" + entry
            ops.append(
                .mount(
                    source: path, path: path, fstype: nil, flags: [.bind, .recursive], data: nil,
                    optional: true))
            ops.append(.remountBind(path: path, flags: [.readOnly, .noSuid, .noDev, .noExec], optional: true))
        }
        for entry in Self.maskedProcEntries {
            mask(host: "/proc/" + entry)
        }
    }

    private mutating func addDev(terminal: Bool) {
        ensureDirectory("/dev", mode: 0o755)
        let dev = root + "/dev"
        ops.append(
            .mount(
                source: "tmpfs", path: dev, fstype: "tmpfs", flags: [.noSuid, .noExec],
                data: "mode=0755,size=64k", optional: false))
        for node in Self.deviceNodes {
            ops.append(.mkfile(path: dev + "/" + node, mode: 0o666))
            ops.append(
                .mount(
                    source: "/dev/" + node, path: dev + "/" + node, fstype: nil, flags: [.bind], data: nil,
                    optional: node == "tty"))
        }
        ops.append(.symlink(target: "/proc/self/fd", path: dev + "/fd"))
        ops.append(.symlink(target: "/proc/self/fd/0", path: dev + "/stdin"))
        ops.append(.symlink(target: "/proc/self/fd/1", path: dev + "/stdout"))
        ops.append(.symlink(target: "/proc/self/fd/2", path: dev + "/stderr"))
        ops.append(.mkdir(path: dev + "/shm", mode: 0o1777))
        ops.append(
            .mount(
                source: "tmpfs", path: dev + "/shm", fstype: "tmpfs", flags: [.noSuid, .noDev, .noExec],
                data: "mode=1777,size=64m", optional: false))
        if terminal { addPTYDevices(dev) }
        // Nothing may create device nodes or files in /dev afterwards.
        ops.append(.remountBind(path: dev, flags: [.readOnly, .noSuid, .noExec], optional: false))
        directories.insert("/dev/shm")
    }

    /// A devpts instance of the sandbox's own (`newinstance`): its ptys are invisible to the
    /// host's and the host's to it; `max` bounds how many the payload can open.
    private mutating func addPTYDevices(_ dev: String) {
        ops.append(.mkdir(path: dev + "/pts", mode: 0o755))
        ops.append(
            .mount(
                source: "devpts", path: dev + "/pts", fstype: "devpts", flags: [.noSuid, .noExec],
                data: "newinstance,ptmxmode=0666,mode=0620,max=\(Self.maxPTYs)", optional: false))
        ops.append(.symlink(target: "pts/ptmx", path: dev + "/ptmx"))
        directories.insert("/dev/pts")
    }

    static let maxPTYs = 16

    private mutating func ensureEmptyFile() {
        guard !haveEmptyFile else { return }
        haveEmptyFile = true
        ops.append(.mkfile(path: emptyFile, mode: 0o000))
        // A read-only mount of its own, which every mask's bind copies.
        ops.append(.mount(source: emptyFile, path: emptyFile, fstype: nil, flags: [.bind], data: nil, optional: false))
        ops.append(.remountBind(path: emptyFile, flags: [.readOnly, .noSuid, .noDev, .noExec], optional: false))
    }

    /// Creates `path` and its missing ancestors inside the new root.
    /// Makes `path` (and its parents) in the new root unless an earlier step made it or it lies
    /// in a host tree bound read-only, where it exists or the payload's `chdir` says it does not.
    mutating func ensureWorkingDirectory(_ path: String, boundReadOnly: [String]) {
        guard !boundReadOnly.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { return }
        ensureDirectory(path, mode: 0o755)
    }

    private mutating func ensureDirectory(_ path: String, mode: UInt32) {
        guard !directories.contains(path) else { return }
        let parentPath = parent(of: path)
        if parentPath != path { ensureDirectory(parentPath, mode: 0o755) }
        ops.append(.mkdir(path: root + path, mode: mode))
        directories.insert(path)
    }

    private func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
