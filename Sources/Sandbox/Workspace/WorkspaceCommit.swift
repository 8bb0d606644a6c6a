#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import Support

/// Applies an `rw` run's overlay upper layer to the workspace directory, after the sandbox has
/// ended (every process in it is gone, so nothing changes either tree while this runs).
///
/// The upper layer is entirely the payload's: symlinks, hard links, whiteouts (0:0 character
/// devices), opaque directories (`user.overlay.opaque`), FIFOs, sparse files, deep trees, names
/// with newlines. So both trees are walked by directory descriptors only (`DirectoryDescriptor`):
/// every open is relative to a directory fd, resolves no symlink and crosses no mount (`beneath`), every stat
/// is `AT_SYMLINK_NOFOLLOW`, and names are single components as `readdir` returned them. Nothing
/// existing on the host is ever opened for writing: a file is written to a fresh temporary name
/// (`O_CREAT|O_EXCL|O_NOFOLLOW`) and renamed over its target; a symlink is created as a symlink;
/// a whiteout removes the host entry (a directory recursively, by fds). Committed entries get the
/// workspace owner's ids (what the idmapped bind stored before) and the payload's mode bits
/// without setuid/setgid. Special files other than whiteouts are not created (reported).
///
/// The workspace's owner may be a local user racing the commit on the host, renaming entries in
/// her directories while root works there. So owner, mode and times are set only through a
/// descriptor of what the commit created (a symlink reopened `O_PATH` and checked to be the one
/// it made, a new directory checked to be its own, empty and private), and the commit changes or
/// empties only her own directories: anything she renames into place gains her nothing she
/// could not do herself. Every further name of a hard-linked file is linked, never copied, and
/// the commit writes at most `byteLimit` bytes (file data and symlink targets) in all.
struct WorkspaceCommit {
    /// What a commit changed on the host.
    struct Summary: Sendable, Equatable {
        var files = 0
        var symlinks = 0
        var directories = 0
        var removed = 0
        /// Bytes written: file data and symlink targets.
        var bytes: UInt64 = 0
        /// Entries not committed (special files), as paths relative to the workspace.
        var skipped: [String] = []
    }

    /// Bounds on the walk: the upper layer is size- and inode-limited already; these stop a tree
    /// deeper than any real project (each level holds two descriptors) or absurdly wide.
    static let maxDepth = 256
    static let maxEntries = 1 << 20

    private let ownerUID: uid_t
    private let ownerGID: gid_t
    /// Who the commit runs as: the owner of what it creates before handing it over.
    private let selfUID = geteuid()
    private let device: UInt64
    private let byteLimit: UInt64
    private var entries = 0
    private var linked: CommittedInodes
    private var summary = Summary()
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 4096)

    private init(directory: WorkspaceDirectory, root: DirectoryDescriptor, byteLimit: UInt64) {
        ownerUID = directory.ownerUID
        ownerGID = directory.ownerGID
        device = directory.device
        self.byteLimit = byteLimit
        linked = CommittedInodes(mount: root.rawValue, device: directory.device)
    }

    /// Commits `upper` (a directory in the parent's own mount of the upper layer's tmpfs) to
    /// `directory`, writing at most `byteLimit` bytes. Throws `SentinelError` naming the entry
    /// (relative to the workspace) on the first problem; the changes applied before it stay
    /// applied, the entry it stopped at is not.
    static func apply(upper: Int32, to directory: WorkspaceDirectory, byteLimit: UInt64) throws -> Summary {
        let upper = try step(".", "open upper") { try DirectoryDescriptor(duplicating: upper) }
        return try apply(upper: upper, to: directory, byteLimit: byteLimit)
    }

    /// Commits `upper` to `directory`, as `apply(upper:to:byteLimit:)` with the upper directory's descriptor.
    static func apply(upper: DirectoryDescriptor, to directory: WorkspaceDirectory, byteLimit: UInt64) throws -> Summary {
        // The O_PATH descriptor resolved before the run, re-opened: never the path string.
        let host = try step(".", "open workspace") { try DirectoryDescriptor(duplicating: directory.fd).reopened() }
        // `linked` reopens handles on host's raw descriptor: it stays open until the commit ends.
        defer { withExtendedLifetime(host) {} }
        var commit = WorkspaceCommit(directory: directory, root: host, byteLimit: byteLimit)
        defer { commit.release() }
        try commit.merge(upper: upper, host: host, path: ".", depth: 0)
        return commit.summary
    }

    private mutating func release() {
        linked.release()
        buffer.deallocate()
    }

    static func failure(_ path: String, _ stage: String, _ errno: Errno?, _ reason: String? = nil) -> SentinelError {
        .workspaceCommit(stage: stage, errno: errno, detail: path + (reason.map { ": " + $0 } ?? ""))
    }

    /// One descriptor call at `stage` of committing `path`, its failure as the commit words it.
    private static func step<T>(_ path: String, _ stage: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as Errno {
            throw failure(path, stage, error)
        }
    }

    // MARK: walking

    /// The upper directory `upper` over the host directory `host`: every entry applied.
    private mutating func merge(upper: DirectoryDescriptor, host: DirectoryDescriptor, path: String, depth: Int) throws {
        for name in try Self.names(in: upper, path: path) {
            entries += 1
            guard entries <= Self.maxEntries else {
                throw Self.failure(path, "walk", nil, "more than \(Self.maxEntries) entries")
            }
            let child = path == "." ? Self.display(name) : path + "/" + Self.display(name)
            let info = try Self.step(child, "fstatat(upper)") { try upper.status(of: name) }
            switch info.st_mode & S_IFMT {
            case S_IFCHR where info.st_rdev == 0:
                try remove(host: host, name: name, path: child, depth: depth)
            case S_IFDIR:
                try commitDirectory(upper: upper, host: host, name: name, info: info, path: child, depth: depth)
            case S_IFREG:
                try commitFile(upper: upper, host: host, name: name, info: info, path: child, depth: depth)
            case S_IFLNK:
                try commitSymlink(upper: upper, host: host, name: name, info: info, path: child, depth: depth)
            default:
                // A FIFO, socket or device: what it replaced is gone, it is not created.
                try remove(host: host, name: name, path: child, depth: depth)
                summary.skipped.append(child)
            }
        }
    }

    private mutating func commitDirectory(
        upper: DirectoryDescriptor, host: DirectoryDescriptor, name: [CChar], info: stat, path: String,
        depth: Int
    ) throws {
        guard depth < Self.maxDepth else {
            throw Self.failure(path, "walk", nil, "deeper than \(Self.maxDepth) directories")
        }
        let upperChild = try Self.step(path, "openat2(upper)") { try upper.openDirectory(name, beneath: true) }
        try Self.refuseRedirect(upperChild.rawValue, path: path)
        let opaque = try Self.isOpaque(upperChild.rawValue, path: path)
        let hostInfo = try Self.step(path, "fstatat") { try host.statusIfPresent(of: name) }
        var exists = hostInfo != nil
        // An opaque directory replaced the host's; a directory over a file or link replaced it.
        if let hostInfo, opaque || hostInfo.st_mode & S_IFMT != S_IFDIR {
            try remove(host: host, name: name, path: path, depth: depth)
            exists = false
        }
        if !exists { try Self.step(path, "mkdirat") { try host.makeDirectory(name, mode: 0o700) } }
        let (hostChild, opened) = try openHostDirectory(host, name, path: path, created: !exists)
        // Its raw descriptor is used below: it stays open until the last call returns.
        defer { withExtendedLifetime(hostChild) {} }
        if !exists, fchown(hostChild.rawValue, ownerUID, ownerGID) != 0 { throw Self.failure(path, "fchown", .current) }
        try merge(upper: upperChild, host: hostChild, path: path, depth: depth + 1)
        // The payload's permission bits; an existing directory keeps its setgid bit.
        let mode = (info.st_mode & 0o1777) | (exists ? opened.st_mode & S_ISGID : 0)
        if opened.st_mode & 0o7777 != mode, fchmod(hostChild.rawValue, mode) != 0 {
            throw Self.failure(path, "fchmod", .current)
        }
        var times = [info.st_atim, info.st_mtim]
        _ = futimens(hostChild.rawValue, &times)
        summary.directories += 1
    }

    private mutating func commitFile(
        upper: DirectoryDescriptor, host: DirectoryDescriptor, name: [CChar], info: stat, path: String,
        depth: Int
    ) throws {
        let key = CommittedInodes.Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        // Another name of an inode already committed: link it (AT_EMPTY_PATH: by fd, no path).
        let linkTo = { (committed: Int32) in
            try Self.temporaryName(path: path) { (name) throws(Errno) in try host.link(committed, as: name) }
        }
        if info.st_nlink > 1, let temporary = try linked.withCommitted(key, path: path, linkTo) {
            do {
                try place(host: host, temporary: temporary, name: name, path: path, depth: depth)
            } catch {
                try? host.remove(temporary)
                throw error
            }
            summary.files += 1
            return
        }
        let source = try Self.step(path, "openat2(upper)") { try upper.openFile(name, flags: O_RDONLY | O_NONBLOCK, beneath: true) }
        defer { close(source) }
        var opened = stat()
        guard fstat(source, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG, opened.st_ino == info.st_ino else {
            throw Self.failure(path, "fstat(upper)", nil, "changed while committing")
        }
        if Self.hasXattr(source, "metacopy") {
            throw Self.failure(path, "fgetxattr", nil, "metacopy-only entry in the upper layer")
        }
        var target: Int32 = -1
        let temporary = try Self.temporaryName(path: path) { (name) throws(Errno) in
            target = try host.openFile(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        }
        do {
            summary.bytes += try copyData(
                from: source, to: target, size: opened.st_size, budget: byteLimit - summary.bytes, path: path)
            guard fchown(target, ownerUID, ownerGID) == 0 else { throw Self.failure(path, "fchown", .current) }
            guard fchmod(target, info.st_mode & 0o1777) == 0 else { throw Self.failure(path, "fchmod", .current) }
            var times = [info.st_atim, info.st_mtim]
            _ = futimens(target, &times)
            try place(host: host, temporary: temporary, name: name, path: path, depth: depth)
        } catch {
            try? host.remove(temporary)
            close(target)
            throw error
        }
        summary.files += 1
        if info.st_nlink > 1 {
            linked.keep(target, for: key)
        } else {
            close(target)
        }
    }

    private mutating func commitSymlink(
        upper: DirectoryDescriptor, host: DirectoryDescriptor, name: [CChar], info: stat, path: String,
        depth: Int
    ) throws {
        let target = try Self.step(path, "readlinkat(upper)") { try upper.linkTarget(name) }
        let length = target.count - 1
        guard UInt64(length) <= byteLimit - summary.bytes else { throw sizeExceeded(path) }
        let temporary = try Self.temporaryName(path: path) { (name) throws(Errno) in
            try host.makeSymbolicLink(name, target: target)
        }
        do {
            let link = try openCreatedSymlink(host, temporary, target: target, path: path)
            defer { close(link) }
            try Self.step(path, "fchownat") { try DirectoryDescriptor.setOwner(of: link, uid: ownerUID, gid: ownerGID) }
            try? DirectoryDescriptor.setTimes(of: link, access: info.st_atim, modification: info.st_mtim)
            try place(host: host, temporary: temporary, name: name, path: path, depth: depth)
            summary.bytes += UInt64(length)
        } catch {
            try? host.remove(temporary)
            throw error
        }
        summary.symlinks += 1
    }

    /// Renames the committed `temporary` over `name`, removing a directory there first (rename
    /// replaces files and links atomically, never follows them).
    private mutating func place(host: DirectoryDescriptor, temporary: [CChar], name: [CChar], path: String, depth: Int) throws {
        if let existing = try? host.status(of: name), existing.st_mode & S_IFMT == S_IFDIR {
            try remove(host: host, name: name, path: path, depth: depth)
        }
        try Self.step(path, "renameat") { try host.rename(temporary, to: name) }
    }

    /// Removes the host entry `name` (a directory with everything in it), by descriptors only.
    private mutating func remove(host: DirectoryDescriptor, name: [CChar], path: String, depth: Int) throws {
        let info: stat
        do throws(Errno) {
            info = try host.status(of: name)
        } catch {
            guard error.rawValue == ENOENT else { throw Self.failure(path, "fstatat", error) }
            return
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            guard depth < Self.maxDepth else {
                throw Self.failure(path, "remove", nil, "deeper than \(Self.maxDepth) directories")
            }
            // RESOLVE_NO_XDEV: a mount point inside the workspace is never emptied.
            let directory = try Self.step(path, "openat2") { try host.openDirectory(name, beneath: true) }
            let opened = try Self.step(path, "fstat") { try directory.status() }
            // Only the owner's directories are emptied; another's (one she renamed here) goes
            // only if it is empty, as she could remove it herself.
            let owned = opened.st_uid == ownerUID
            if owned {
                for child in try Self.names(in: directory, path: path) {
                    try remove(host: directory, name: child, path: path + "/" + Self.display(child), depth: depth + 1)
                }
            }
            do throws(Errno) {
                try host.remove(name, directory: true)
            } catch {
                throw Self.failure(path, "unlinkat", error, owned ? nil : "not the workspace owner's directory")
            }
        } else {
            try Self.step(path, "unlinkat") { try host.remove(name) }
        }
        summary.removed += 1
    }

    // MARK: helpers

    /// Copies the data extents of `source` (holes stay holes, so a sparse file costs the host
    /// only what it cost the size-limited upper layer), then sets the length.
    private func copyData(from source: Int32, to target: Int32, size: off_t, budget: UInt64, path: String) throws -> UInt64 {
        let seekData: Int32 = 3, seekHole: Int32 = 4
        var copied: UInt64 = 0
        var offset: off_t = 0
        while offset < size {
            let start = lseek(source, offset, seekData)
            if start < 0 {
                if errno == ENXIO { break }
                throw Self.failure(path, "lseek(SEEK_DATA)", .current)
            }
            let end = lseek(source, start, seekHole)
            guard end >= start else { throw Self.failure(path, "lseek(SEEK_HOLE)", .current) }
            var at = start
            while at < end {
                let want = Int(min(end - at, off_t(1 << 20)))
                let got = pread(source, buffer, want, at)
                guard got > 0 else { throw Self.failure(path, "pread(upper)", got < 0 ? .current : nil, got == 0 ? "short read" : nil) }
                guard copied + UInt64(got) <= budget else { throw sizeExceeded(path) }
                var written = 0
                while written < got {
                    let put = pwrite(target, buffer + written, got - written, at + off_t(written))
                    guard put > 0 else { throw Self.failure(path, "pwrite", .current) }
                    written += put
                }
                at += off_t(got)
                copied += UInt64(got)
            }
            offset = end
        }
        guard ftruncate(target, size) == 0 else { throw Self.failure(path, "ftruncate", .current) }
        return copied
    }

    private func sizeExceeded(_ path: String) -> SentinelError {
        Self.failure(path, "size", nil, "the commit would write more than the workspace size, \(byteLimit) bytes")
    }

    /// Opens the directory `name` just made (`created`) or found in `host`, and checks it is one
    /// the commit may change: on the workspace's filesystem, and either the workspace owner's
    /// or, just made, still root's own, private and empty (else the owner renamed another
    /// directory over the new name, and it is left alone).
    private func openHostDirectory(
        _ host: DirectoryDescriptor, _ name: [CChar], path: String, created: Bool
    ) throws -> (DirectoryDescriptor, stat) {
        let directory = try Self.step(path, "openat2") { try host.openDirectory(name, beneath: true) }
        guard let info = try? directory.status(), UInt64(info.st_dev) == device else {
            throw Self.failure(path, "fstat", nil, "not on the workspace's filesystem")
        }
        if created {
            guard info.st_uid == selfUID, info.st_mode & 0o077 == 0,
                try Self.names(in: directory, path: path).isEmpty
            else { throw Self.failure(path, "mkdirat", nil, "replaced while committing") }
        } else if info.st_uid != ownerUID {
            throw Self.failure(path, "fstat", nil, "not the workspace owner's directory")
        }
        return (directory, info)
    }

    /// Reopens the symlink just made at `temporary` without following it, and checks it is that
    /// symlink: root's, one name, holding `target` (else the owner renamed something over it).
    private func openCreatedSymlink(_ host: DirectoryDescriptor, _ temporary: [CChar], target: [CChar], path: String) throws
        -> Int32
    {
        let fd = try Self.step(path, "openat2") {
            try host.openFile(temporary, flags: LinuxFlags.openPathOnly, beneath: true)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, info.st_uid == selfUID, info.st_nlink == 1,
            UInt64(info.st_dev) == device, (try? DirectoryDescriptor.linkTarget(of: fd)) == target
        else {
            close(fd)
            throw Self.failure(path, "symlinkat", nil, "replaced while committing")
        }
        return fd
    }

    /// Creates something at a fresh temporary name with `make` (which fails with EEXIST when
    /// the name is taken) and returns the name.
    private static func temporaryName(path: String, _ make: ([CChar]) throws(Errno) -> Void) throws -> [CChar] {
        for _ in 0..<16 {
            let name = Array(".sentinel-commit-\(UInt64.random(in: 0...UInt64.max))".utf8CString)
            do throws(Errno) {
                try make(name)
                return name
            } catch {
                guard error.rawValue == EEXIST else { throw failure(path, "create temporary", error) }
            }
        }
        throw failure(path, "create temporary", Errno(rawValue: EEXIST))
    }

    /// The names in a directory (without `.` and `..`), at most `maxEntries` of them.
    private static func names(in directory: DirectoryDescriptor, path: String) throws -> [[CChar]] {
        let entries = try step(path, "fdopendir") { try directory.entries(limit: maxEntries) }
        if entries.count > maxEntries { throw failure(path, "walk", nil, "more than \(maxEntries) entries") }
        return entries.map(\.name)
    }

    /// A name for messages, which reach the caller's terminal: lossy UTF-8, with C0 and C1
    /// controls and DEL escaped (`\x1b`, `\x9b`), so that a name cannot drive the terminal, and
    /// bidi overrides, embeddings, isolates and marks escaped (`\u{202e}`), so that it cannot
    /// reorder what the reader sees ("Trojan Source").
    static func display(_ name: [CChar]) -> String {
        DisplayText.escaped(String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// overlayfs keeps its markers in `user.overlay.*` with `userxattr`, `trusted.overlay.*` without.
    private static func overlayXattr(_ fd: Int32, _ name: String) -> [UInt8]? {
        for prefix in ["user.overlay.", "trusted.overlay."] {
            var value = [UInt8](repeating: 0, count: 16)
            let length = csys_fgetxattr(fd, prefix + name, &value, value.count)
            if length >= 0 { return Array(value.prefix(length)) }
            if errno == ERANGE { return Array("?".utf8) }
        }
        return nil
    }

    private static func hasXattr(_ fd: Int32, _ name: String) -> Bool { overlayXattr(fd, name) != nil }

    private static func isOpaque(_ fd: Int32, path: String) throws -> Bool {
        guard let value = overlayXattr(fd, "opaque") else { return false }
        guard value == Array("y".utf8) else { throw failure(path, "fgetxattr", nil, "unknown overlay opaque marker") }
        return true
    }

    /// Renamed directories (`redirect`) need the lower layer to interpret; this mount never
    /// makes them (`userxattr` turns redirect_dir off), so one here is refused.
    private static func refuseRedirect(_ fd: Int32, path: String) throws {
        if hasXattr(fd, "redirect") || hasXattr(fd, "metacopy") {
            throw failure(path, "fgetxattr", nil, "redirected directory in the upper layer")
        }
    }
}
