#if canImport(Glibc)
    import Glibc
#endif
import CSystem

/// An open directory, and the one place the CLI's descriptor walkers make their `*at` calls.
///
/// Every entry is named relative to the descriptor by one component as the caller (or
/// `entries()`) gives it, and never followed: opens add `O_NOFOLLOW | O_CLOEXEC`, status is
/// `AT_SYMLINK_NOFOLLOW`, and `beneath` opens resolve with `openat2` allowing no symbolic link,
/// magic link or mount crossing (`csys_openat_beneath`). Each call retries EINTR and throws the
/// `Errno` of any other failure (after swift-system's `FileDescriptor`): callers word their own
/// messages. Names are `UnsafePointer<CChar>`, so a `String` or a NUL-terminated `[CChar]` as
/// `readdir` returned it (not necessarily UTF-8) passes unchanged. The descriptor closes when the
/// value goes away, except `workingDirectory`'s.
public final class DirectoryDescriptor: Sendable {
    /// The descriptor itself (`AT_FDCWD` for `workingDirectory`). Open while this value lives: a
    /// caller passing it to a call of its own keeps the value alive until the call returns
    /// (`defer { withExtendedLifetime(directory) {} }`), or the optimizer may close it before.
    public let rawValue: Int32
    private let owned: Bool

    /// The process's current directory (`AT_FDCWD`): relative and absolute paths opened from it
    /// resolve as `open(2)` resolves them, the last component never followed.
    public static let workingDirectory = DirectoryDescriptor(AT_FDCWD, owned: false)

    private init(_ rawValue: Int32, owned: Bool) {
        self.rawValue = rawValue
        self.owned = owned
    }

    /// Takes over `fd`, an open directory descriptor: it closes with this value.
    public convenience init(taking fd: Int32) { self.init(fd, owned: true) }

    /// A second descriptor of the directory open as `fd` (`F_DUPFD_CLOEXEC`); `fd` stays the caller's.
    public convenience init(duplicating fd: Int32) throws(Errno) {
        self.init(try Self.call { fcntl(fd, F_DUPFD_CLOEXEC, 0) }, owned: true)
    }

    deinit { if owned { close(rawValue) } }

    // MARK: opening

    /// Opens the directory `name`. `beneath`: resolved beneath this directory by `openat2` with no
    /// symbolic link anywhere on the way and no mount crossed (`name` may then have several
    /// components); `pathOnly`: an `O_PATH` descriptor; `followingLinks`: a link as the last
    /// component is followed (a path the operator names). Throws ELOOP or ENOTDIR for a link,
    /// ENOTDIR for anything else that is not a directory.
    public func openDirectory(
        _ name: UnsafePointer<CChar>, beneath: Bool = false, pathOnly: Bool = false, followingLinks: Bool = false
    ) throws(Errno) -> DirectoryDescriptor {
        var flags = (pathOnly ? LinuxFlags.openPathOnly : O_RDONLY) | O_DIRECTORY
        if !followingLinks { flags |= O_NOFOLLOW }
        return DirectoryDescriptor(taking: try open(name, flags: flags, beneath: beneath))
    }

    /// This directory again, opened for reading (`.`): from an `O_PATH` descriptor, one that can be listed.
    public func reopened() throws(Errno) -> DirectoryDescriptor {
        DirectoryDescriptor(taking: try Self.call { openat(rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
    }

    /// Opens the entry `name` with `flags` (access mode, `O_CREAT`, `O_EXCL`, `O_APPEND`,
    /// `O_NONBLOCK`, `O_PATH`...) plus `O_NOFOLLOW | O_CLOEXEC`, creating it with `mode` under
    /// `O_CREAT`; `beneath` as for `openDirectory`. Returns the descriptor, which the caller
    /// closes. A link as the last component fails with ELOOP (with `O_PATH`, the link itself is
    /// opened); pass `O_NONBLOCK` for whatever may be a FIFO, or the open waits for a writer.
    public func openFile(
        _ name: UnsafePointer<CChar>, flags: Int32, mode: mode_t = 0, beneath: Bool = false
    ) throws(Errno) -> Int32 {
        try open(name, flags: flags | O_NOFOLLOW, mode: mode, beneath: beneath)
    }

    private func open(_ name: UnsafePointer<CChar>, flags: Int32, mode: mode_t = 0, beneath: Bool) throws(Errno) -> Int32 {
        if beneath {
            // csys_openat_beneath adds O_NOFOLLOW itself; openat2 refuses a creation mode without O_CREAT.
            return try Self.call { csys_openat_beneath(rawValue, name, flags) }
        }
        return try Self.call { openat(rawValue, name, flags | O_CLOEXEC, mode) }
    }

    // MARK: status

    /// What sits at `name`, the link itself for a link (`AT_SYMLINK_NOFOLLOW`).
    public func status(of name: UnsafePointer<CChar>) throws(Errno) -> stat {
        var info = stat()
        _ = try Self.call { fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    /// Throws why the caller could not read `name` (EACCES...), checked against its effective
    /// ids without opening it (one `faccessat2`, no file opened and closed); the link itself for a link.
    public func checkReadable(_ name: UnsafePointer<CChar>) throws(Errno) {
        _ = try Self.call { faccessat(rawValue, name, R_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW) }
    }

    /// The directory's own status.
    public func status() throws(Errno) -> stat {
        var info = stat()
        _ = try Self.call { fstat(rawValue, &info) }
        return info
    }

    /// What sits at `name` as `status(of:)` gives it, or nil when nothing does (ENOENT); any
    /// other failure is thrown.
    public func statusIfPresent(of name: UnsafePointer<CChar>) throws(Errno) -> stat? {
        do throws(Errno) {
            return try status(of: name)
        } catch {
            guard error.rawValue == ENOENT else { throw error }
            return nil
        }
    }

    /// Whether anything (a link included) sits at `name`: false only for ENOENT; any other
    /// failure is thrown.
    public func contains(_ name: UnsafePointer<CChar>) throws(Errno) -> Bool {
        try statusIfPresent(of: name) != nil
    }

    /// What the symbolic link `name` holds (NUL-terminated, not necessarily UTF-8), up to PATH_MAX bytes.
    public func linkTarget(_ name: UnsafePointer<CChar>) throws(Errno) -> [CChar] {
        try Self.linkTarget(rawValue, name)
    }

    /// What the symbolic link open as `fd` (an `O_PATH | O_NOFOLLOW` descriptor of the link) holds.
    public static func linkTarget(of fd: Int32) throws(Errno) -> [CChar] {
        try linkTarget(fd, "")
    }

    private static func linkTarget(_ directory: Int32, _ name: UnsafePointer<CChar>) throws(Errno) -> [CChar] {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = try call { readlinkat(directory, name, &target, Int(PATH_MAX)) }
        return Array(target.prefix(length)) + [0]
    }

    // MARK: listing

    /// The entries, without `.` and `..`, in the order the directory gives them, read from the
    /// start (this descriptor's position is reset first, so an earlier listing does not matter;
    /// two threads must not list one descriptor at once). At most `limit + 1` are read: a caller
    /// bounding a directory's width sees that there were more.
    public func entries(limit: Int = .max) throws(Errno) -> [Entry] {
        // getdents64 on this descriptor itself: a dup, fdopendir's checks and closedir cost three
        // more syscalls per directory, and a walk lists thousands.
        _ = try Self.call { lseek(rawValue, 0, SEEK_SET) }
        var result: [Entry] = []
        let capacity = 32 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while result.count <= limit {
            let filled = try Self.call { csys_getdents64(rawValue, buffer, capacity) }
            if filled == 0 { break }
            var offset = 0
            while offset < filled, result.count <= limit {
                // struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16, d_type u8, d_name.
                let record = buffer + offset
                let length = Int(record.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
                guard length > 19, offset + length <= filled else { throw Errno(rawValue: EIO) }
                let type = record.load(fromByteOffset: 18, as: UInt8.self)
                let name = (record + 19).assumingMemoryBound(to: CChar.self)
                let nameLength = strnlen(name, length - 19)
                guard nameLength < length - 19 else { throw Errno(rawValue: EIO) }
                // The name and its NUL, copied once.
                let bytes = Array(UnsafeBufferPointer(start: name, count: nameLength + 1))
                offset += length
                if bytes == [46, 0] || bytes == [46, 46, 0] { continue }
                result.append(Entry(name: bytes, type: type))
            }
        }
        return result
    }

    /// One directory entry as `readdir` gives it.
    public struct Entry: Sendable, Hashable {
        /// The name's bytes, NUL-terminated (pass it back to this type's calls as it is).
        public var name: [CChar]
        /// `DT_DIR`, `DT_REG`, `DT_LNK`..., or `DT_UNKNOWN` when the file system does not say.
        public var type: UInt8

        /// The name as text (invalid UTF-8 repaired), for messages and matching.
        public var text: String { name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }

        /// The `type` a file of mode `mode` has in an entry (`DT_DIR` for `S_IFDIR`...: the kernel's
        /// `IFTODT`), for an entry whose type had to come from `stat`.
        public static func type(ofMode mode: mode_t) -> UInt8 { UInt8(truncatingIfNeeded: (mode & S_IFMT) >> 12) }
    }

    // MARK: changing

    /// Makes the directory `name` with `mode` (less the umask). EEXIST when anything sits there.
    public func makeDirectory(_ name: UnsafePointer<CChar>, mode: mode_t) throws(Errno) {
        _ = try Self.call { mkdirat(rawValue, name, mode) }
    }

    /// Makes a symbolic link `name` holding `target`. EEXIST when anything sits there.
    public func makeSymbolicLink(_ name: UnsafePointer<CChar>, target: UnsafePointer<CChar>) throws(Errno) {
        _ = try Self.call { symlinkat(target, rawValue, name) }
    }

    /// Links the file open as `fd` (any descriptor, `O_PATH` included) as `name` here, by the
    /// descriptor (`AT_EMPTY_PATH`), never by a path. EEXIST when anything sits there.
    public func link(_ fd: Int32, as name: UnsafePointer<CChar>) throws(Errno) {
        _ = try Self.call { linkat(fd, "", rawValue, name, LinuxFlags.atEmptyPath) }
    }

    /// Links the entry `name` here (a link itself, not what it points at) as `newName` in `target`.
    public func link(_ name: UnsafePointer<CChar>, as newName: UnsafePointer<CChar>, in target: DirectoryDescriptor)
        throws(Errno)
    {
        _ = try Self.call { linkat(rawValue, name, target.rawValue, newName, 0) }
    }

    /// Removes the entry `name`, a link itself rather than what it points at: `directory` says
    /// which kind (`AT_REMOVEDIR`; a directory must be empty).
    public func remove(_ name: UnsafePointer<CChar>, directory: Bool = false) throws(Errno) {
        _ = try Self.call { unlinkat(rawValue, name, directory ? AT_REMOVEDIR : 0) }
    }

    /// How `rename` treats an entry already at the new name.
    public enum Replacing: Sendable {
        /// `renameat`: a file or link there is replaced atomically (an empty directory by a directory).
        case replace
        /// `RENAME_NOREPLACE`: EEXIST when anything is there.
        case never
        /// `RENAME_EXCHANGE`: the two entries swap names; ENOENT when nothing is there.
        case exchange
    }

    /// Renames `name` here to `newName` in `target` (this directory by default), never following
    /// either name.
    public func rename(
        _ name: UnsafePointer<CChar>, to newName: UnsafePointer<CChar>, in target: DirectoryDescriptor? = nil,
        replacing: Replacing = .replace
    ) throws(Errno) {
        let destination = (target ?? self).rawValue
        switch replacing {
        case .replace: _ = try Self.call { renameat(rawValue, name, destination, newName) }
        case .never: _ = try Self.call { csys_renameat2(rawValue, name, destination, newName, 0) }
        case .exchange: _ = try Self.call { csys_renameat2(rawValue, name, destination, newName, 1) }
        }
    }

    // MARK: by descriptor

    /// Sets the owner of what `fd` names, a symbolic link itself included (`fchownat` with
    /// `AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW` on an `O_PATH` descriptor).
    public static func setOwner(of fd: Int32, uid: uid_t, gid: gid_t) throws(Errno) {
        _ = try call { fchownat(fd, "", uid, gid, LinuxFlags.atEmptyPath | AT_SYMLINK_NOFOLLOW) }
    }

    /// Sets the access and modification times of what `fd` names, a symbolic link itself included.
    public static func setTimes(of fd: Int32, access: timespec, modification: timespec) throws(Errno) {
        var times = [access, modification]
        _ = try call { utimensat(fd, "", &times, LinuxFlags.atEmptyPath | AT_SYMLINK_NOFOLLOW) }
    }

    /// The one EINTR loop and errno conversion every call here goes through.
    private static func call<Value: SignedInteger & FixedWidthInteger>(_ body: () -> Value) throws(Errno) -> Value {
        try retryingOnInterrupt(body).get()
    }
}
