#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import Support

/// The host files the workspace commit made for hard-linked upper files, so that every further
/// name of one is linked to it and never copied: a copy per name let a payload write many times
/// its layer's size to the host. The first `maxOpen` are kept open; past them a file handle
/// (`name_to_handle_at`) is kept instead and reopened (`open_by_handle_at`) for each further
/// name, so no descriptor limit bounds how many files are linked.
struct CommittedInodes {
    /// An upper layer inode.
    struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private enum Kept {
        case open(Int32)
        case handle([UInt8], inode: UInt64)
        /// No handle: the workspace's filesystem gives none (the link is refused, not copied).
        case lost(Errno)
    }

    /// Committed files kept open to link further names to.
    static let maxOpen = 1024

    private var kept: [Key: Kept] = [:]
    private var openCount = 0
    /// A descriptor on the workspace's filesystem (not `O_PATH`), to reopen handles on.
    private let mount: Int32
    private let device: UInt64

    init(mount: Int32, device: UInt64) {
        self.mount = mount
        self.device = device
    }

    /// Keeps the committed file `fd` for `key`'s further names; takes the descriptor.
    mutating func keep(_ fd: Int32, for key: Key) {
        if openCount < Self.maxOpen {
            kept[key] = .open(fd)
            openCount += 1
            return
        }
        defer { close(fd) }
        var info = stat()
        var handle = [UInt8](repeating: 0, count: Int(CSYS_FILE_HANDLE_SIZE))
        let length = csys_file_handle(fd, &handle)
        guard length > 0, fstat(fd, &info) == 0 else {
            kept[key] = .lost(.current)
            return
        }
        kept[key] = .handle(Array(handle.prefix(Int(length))), inode: UInt64(info.st_ino))
    }

    /// Runs `body` with a descriptor of the file committed for `key` (to `linkat` by
    /// `AT_EMPTY_PATH`); nil when none was. Throws when it cannot be reached any more.
    func withCommitted<T>(_ key: Key, path: String, _ body: (Int32) throws -> T) throws -> T? {
        switch kept[key] {
        case nil:
            return nil
        case .open(let fd):
            return try body(fd)
        case .lost(let errno):
            throw WorkspaceCommit.failure(
                path, "name_to_handle_at", errno,
                "a hard link past \(Self.maxOpen) linked files, on a filesystem without file handles")
        case .handle(let handle, let inode):
            let fd = csys_open_by_handle(mount, handle, handle.count, LinuxFlags.openPathOnly)
            guard fd >= 0 else { throw WorkspaceCommit.failure(path, "open_by_handle_at", .current) }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode,
                info.st_mode & S_IFMT == S_IFREG
            else { throw WorkspaceCommit.failure(path, "open_by_handle_at", nil, "not the file committed") }
            return try body(fd)
        }
    }

    /// Closes what is kept open.
    mutating func release() {
        for case .open(let fd) in kept.values { close(fd) }
        kept.removeAll()
        openCount = 0
    }
}
