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
/// with newlines. So both trees are walked by directory descriptors only: every open is relative
/// to a directory fd, resolves no symlink and crosses no mount (`csys_openat_beneath`), every stat
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

    private init(directory: WorkspaceDirectory, root: Int32, byteLimit: UInt64) {
        ownerUID = directory.ownerUID
        ownerGID = directory.ownerGID
        device = directory.device
        self.byteLimit = byteLimit
        linked = CommittedInodes(mount: root, device: directory.device)
    }

    /// Commits `upper` (a directory in the parent's own mount of the upper layer's tmpfs) to
    /// `directory`, writing at most `byteLimit` bytes. Throws `SentinelError` naming the entry
    /// (relative to the workspace) on the first problem; the changes applied before it stay
    /// applied, the entry it stopped at is not.
    static func apply(upper: Int32, to directory: WorkspaceDirectory, byteLimit: UInt64) throws -> Summary {
        // The O_PATH descriptor resolved before the run, re-opened: never the path string.
        let host = openat(directory.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard host >= 0 else { throw failure(".", "open workspace", .current) }
        defer { close(host) }
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

    // MARK: walking

    /// The upper directory `upper` over the host directory `host`: every entry applied.
    private mutating func merge(upper: Int32, host: Int32, path: String, depth: Int) throws {
        for name in try Self.names(in: upper, path: path) {
            entries += 1
            guard entries <= Self.maxEntries else {
                throw Self.failure(path, "walk", nil, "more than \(Self.maxEntries) entries")
            }
            let child = path == "." ? Self.display(name) : path + "/" + Self.display(name)
            var info = stat()
            guard fstatat(upper, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                throw Self.failure(child, "fstatat(upper)", .current)
            }
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
        upper: Int32, host: Int32, name: [CChar], info: stat, path: String,
        depth: Int
    ) throws {
        guard depth < Self.maxDepth else {
            throw Self.failure(path, "walk", nil, "deeper than \(Self.maxDepth) directories")
        }
        let upperChild = csys_openat_beneath(upper, name, O_RDONLY | O_DIRECTORY)
        guard upperChild >= 0 else { throw Self.failure(path, "openat2(upper)", .current) }
        defer { close(upperChild) }
        try Self.refuseRedirect(upperChild, path: path)
        let opaque = try Self.isOpaque(upperChild, path: path)
        var hostInfo = stat()
        var exists = fstatat(host, name, &hostInfo, AT_SYMLINK_NOFOLLOW) == 0
        if !exists, errno != ENOENT { throw Self.failure(path, "fstatat", .current) }
        // An opaque directory replaced the host's; a directory over a file or link replaced it.
        if exists, opaque || hostInfo.st_mode & S_IFMT != S_IFDIR {
            try remove(host: host, name: name, path: path, depth: depth)
            exists = false
        }
        if !exists, mkdirat(host, name, 0o700) != 0 { throw Self.failure(path, "mkdirat", .current) }
        let (hostChild, opened) = try openHostDirectory(host, name, path: path, created: !exists)
        defer { close(hostChild) }
        if !exists, fchown(hostChild, ownerUID, ownerGID) != 0 { throw Self.failure(path, "fchown", .current) }
        try merge(upper: upperChild, host: hostChild, path: path, depth: depth + 1)
        // The payload's permission bits; an existing directory keeps its setgid bit.
        let mode = (info.st_mode & 0o1777) | (exists ? opened.st_mode & S_ISGID : 0)
        if opened.st_mode & 0o7777 != mode, fchmod(hostChild, mode) != 0 {
            throw Self.failure(path, "fchmod", .current)
        }
        var times = [info.st_atim, info.st_mtim]
        _ = futimens(hostChild, &times)
        summary.directories += 1
    }

    private mutating func commitFile(
        upper: Int32, host: Int32, name: [CChar], info: stat, path: String,
        depth: Int
    ) throws {
        let key = CommittedInodes.Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        // Another name of an inode already committed: link it (AT_EMPTY_PATH: by fd, no path).
        let linkTo = { (committed: Int32) in
            try Self.temporaryName(in: host, path: path) { linkat(committed, "", host, $0, LinuxFlags.atEmptyPath) }
        }
        if info.st_nlink > 1, let temporary = try linked.withCommitted(key, path: path, linkTo) {
            do {
                try place(host: host, temporary: temporary, name: name, path: path, depth: depth)
            } catch {
                unlinkat(host, temporary, 0)
                throw error
            }
            summary.files += 1
            return
        }
        let source = csys_openat_beneath(upper, name, O_RDONLY | O_NONBLOCK)
        guard source >= 0 else { throw Self.failure(path, "openat2(upper)", .current) }
        defer { close(source) }
        var opened = stat()
        guard fstat(source, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG, opened.st_ino == info.st_ino else {
            throw Self.failure(path, "fstat(upper)", nil, "changed while committing")
        }
        if Self.hasXattr(source, "metacopy") {
            throw Self.failure(path, "fgetxattr", nil, "metacopy-only entry in the upper layer")
        }
        var target: Int32 = -1
        let temporary = try Self.temporaryName(in: host, path: path) {
            target = openat(host, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            return target >= 0 ? 0 : -1
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
            unlinkat(host, temporary, 0)
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
        upper: Int32, host: Int32, name: [CChar], info: stat, path: String,
        depth: Int
    ) throws {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlinkat(upper, name, &target, Int(PATH_MAX))
        guard length >= 0 else { throw Self.failure(path, "readlinkat(upper)", .current) }
        target[length] = 0
        guard UInt64(length) <= byteLimit - summary.bytes else { throw sizeExceeded(path) }
        let temporary = try Self.temporaryName(in: host, path: path) { symlinkat(target, host, $0) }
        do {
            let link = try openCreatedSymlink(host, temporary, target: target, length: length, path: path)
            defer { close(link) }
            let byDescriptor = LinuxFlags.atEmptyPath | AT_SYMLINK_NOFOLLOW
            guard fchownat(link, "", ownerUID, ownerGID, byDescriptor) == 0 else {
                throw Self.failure(path, "fchownat", .current)
            }
            var times = [info.st_atim, info.st_mtim]
            _ = utimensat(link, "", &times, byDescriptor)
            try place(host: host, temporary: temporary, name: name, path: path, depth: depth)
            summary.bytes += UInt64(length)
        } catch {
            unlinkat(host, temporary, 0)
            throw error
        }
        summary.symlinks += 1
    }

    /// Renames the committed `temporary` over `name`, removing a directory there first (rename
    /// replaces files and links atomically, never follows them).
    private mutating func place(host: Int32, temporary: [CChar], name: [CChar], path: String, depth: Int) throws {
        var existing = stat()
        if fstatat(host, name, &existing, AT_SYMLINK_NOFOLLOW) == 0, existing.st_mode & S_IFMT == S_IFDIR {
            try remove(host: host, name: name, path: path, depth: depth)
        }
        guard renameat(host, temporary, host, name) == 0 else { throw Self.failure(path, "renameat", .current) }
    }

    /// Removes the host entry `name` (a directory with everything in it), by descriptors only.
    private mutating func remove(host: Int32, name: [CChar], path: String, depth: Int) throws {
        var info = stat()
        guard fstatat(host, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return }
            throw Self.failure(path, "fstatat", .current)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            guard depth < Self.maxDepth else {
                throw Self.failure(path, "remove", nil, "deeper than \(Self.maxDepth) directories")
            }
            // RESOLVE_NO_XDEV: a mount point inside the workspace is never emptied.
            let directory = csys_openat_beneath(host, name, O_RDONLY | O_DIRECTORY)
            guard directory >= 0 else { throw Self.failure(path, "openat2", .current) }
            defer { close(directory) }
            var opened = stat()
            guard fstat(directory, &opened) == 0 else { throw Self.failure(path, "fstat", .current) }
            // Only the owner's directories are emptied; another's (one she renamed here) goes
            // only if it is empty, as she could remove it herself.
            let owned = opened.st_uid == ownerUID
            if owned {
                for child in try Self.names(in: directory, path: path) {
                    try remove(host: directory, name: child, path: path + "/" + Self.display(child), depth: depth + 1)
                }
            }
            guard unlinkat(host, name, AT_REMOVEDIR) == 0 else {
                throw Self.failure(path, "unlinkat", .current, owned ? nil : "not the workspace owner's directory")
            }
        } else {
            guard unlinkat(host, name, 0) == 0 else { throw Self.failure(path, "unlinkat", .current) }
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
    private func openHostDirectory(_ host: Int32, _ name: [CChar], path: String, created: Bool) throws -> (Int32, stat) {
        let fd = csys_openat_beneath(host, name, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw Self.failure(path, "openat2", .current) }
        var info = stat()
        do {
            guard fstat(fd, &info) == 0, UInt64(info.st_dev) == device else {
                throw Self.failure(path, "fstat", nil, "not on the workspace's filesystem")
            }
            if created {
                guard info.st_uid == selfUID, info.st_mode & 0o077 == 0,
                    try Self.names(in: fd, path: path).isEmpty
                else { throw Self.failure(path, "mkdirat", nil, "replaced while committing") }
            } else if info.st_uid != ownerUID {
                throw Self.failure(path, "fstat", nil, "not the workspace owner's directory")
            }
        } catch {
            close(fd)
            throw error
        }
        return (fd, info)
    }

    /// Reopens the symlink just made at `temporary` without following it, and checks it is that
    /// symlink: root's, one name, holding `target` (else the owner renamed something over it).
    private func openCreatedSymlink(_ host: Int32, _ temporary: [CChar], target: [CChar], length: Int, path: String) throws
        -> Int32
    {
        let fd = csys_openat_beneath(host, temporary, LinuxFlags.openPathOnly)
        guard fd >= 0 else { throw Self.failure(path, "openat2", .current) }
        var info = stat()
        var content = [CChar](repeating: 0, count: length + 2)
        let read = readlinkat(fd, "", &content, length + 1)
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, info.st_uid == selfUID, info.st_nlink == 1,
            UInt64(info.st_dev) == device, read == length, content.prefix(length) == target.prefix(length)
        else {
            close(fd)
            throw Self.failure(path, "symlinkat", nil, "replaced while committing")
        }
        return fd
    }

    /// Creates something at a fresh temporary name in `host` with `make` (which fails with
    /// EEXIST when the name is taken) and returns the name.
    private static func temporaryName(in host: Int32, path: String, _ make: ([CChar]) -> Int32) throws -> [CChar] {
        for _ in 0..<16 {
            let name = Array(".sentinel-commit-\(UInt64.random(in: 0...UInt64.max))".utf8CString)
            if make(name) == 0 { return name }
            if errno != EEXIST { throw failure(path, "create temporary", .current) }
        }
        throw failure(path, "create temporary", Errno(rawValue: EEXIST))
    }

    /// The names in a directory (without `.` and `..`), read through a duplicate descriptor.
    private static func names(in directory: Int32, path: String) throws -> [[CChar]] {
        let copy = fcntl(directory, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw failure(path, "fdopendir", .current)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var result: [[CChar]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.bindMemory(to: CChar.self).prefix { $0 != 0 }) + [0]
            }
            if name == [46, 0] || name == [46, 46, 0] { continue }
            result.append(name)
            if result.count > maxEntries { throw failure(path, "walk", nil, "more than \(maxEntries) entries") }
        }
        return result
    }

    /// A name for messages: lossy UTF-8, control characters escaped.
    static func display(_ name: [CChar]) -> String {
        let text = String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "\\x" + String($0.value, radix: 16) : String($0) }
            .joined()
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
