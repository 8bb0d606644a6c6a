#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import Support

extension MemoryKey {
    /// The key's file in a state directory.
    public static let fileName = "memory.key"
    /// The variable naming a key file, as `--memory-key` does.
    public static let environmentVariable = "SENTINEL_MEMORY_KEY_FILE"

    /// The key a worker uses, and its file: the file `file` names (`--memory-key`), else the one
    /// `SENTINEL_MEMORY_KEY_FILE` names, else `memory.key` in `state`, made on first use.
    public static func resolve(file: String?, environment: [String: String], state: StateDirectory) throws -> (
        key: MemoryKey, path: String
    ) {
        if let file { return (try load(file), file) }
        if let named = environment[environmentVariable], !named.isEmpty {
            do {
                return (try load(named), named)
            } catch let error as SentinelError {
                // Said with the variable's name: the redactor hides a `*_KEY_*` variable's value, the path.
                throw SentinelError(error.code, "\(environmentVariable): \(error.message)", errno: error.errno)
            }
        }
        return (try loadOrCreate(in: state), state.file(fileName))
    }

    /// The key in the file at `path` (a link to it is refused: name the file itself). Throws
    /// `SentinelError(.memoryKey)` naming the file, never its content, when it is missing, not a
    /// regular file, owned by another user, open to group or others, or not a key.
    public static func load(_ path: String) throws -> MemoryKey {
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let directory: DirectoryDescriptor
        do throws(Errno) {
            directory = try DirectoryDescriptor.workingDirectory.openDirectory(parent, followingLinks: true)
        } catch {
            throw SentinelError(.memoryKey, "\(path): cannot open its directory: \(error)", errno: error)
        }
        return try read(name, in: directory, shown: path)
    }

    /// The key in `state`'s `memory.key`; when there is none yet, a random one written there
    /// first (mode 0600, in the private state directory).
    public static func loadOrCreate(in state: StateDirectory) throws -> MemoryKey {
        let directory = try PrivateDirectory.open(state.path)
        let path = state.file(fileName)
        let present: Bool
        do throws(Errno) { present = try directory.contains(fileName) } catch {
            throw SentinelError(.memoryKey, "\(path): cannot read: \(error)", errno: error)
        }
        if present { return try read(fileName, in: directory, shown: path) }
        let key = try random()
        // Written whole under a fresh name, then renamed only onto nothing: two workers starting
        // together on one state directory agree on the first key, and neither reads half of one.
        let temporary = ".\(fileName).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        do throws(Errno) {
            let fd = try directory.openFile(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            var failure = Array(key.fileText.utf8).withUnsafeBytes { writeAll(fd, $0) }
            if failure == nil, fsync(fd) != 0 { failure = Errno.current }
            close(fd)
            if let failure { throw failure }
            try directory.rename(temporary, to: fileName, replacing: .never)
        } catch {
            try? directory.remove(temporary)
            guard error.rawValue == EEXIST else { throw SentinelError(.memoryKey, "\(path): cannot write: \(error)", errno: error) }
            return try read(fileName, in: directory, shown: path)
        }
        return key
    }

    /// Why a key file of `owner`, `mode` (`st_mode`) may not hold the key of `user`, or nil.
    static func problem(owner: uid_t, mode: mode_t, user: uid_t) -> String? {
        guard mode & S_IFMT == S_IFREG else { return "not a regular file" }
        if owner != user && owner != 0 {
            return "owned by uid \(owner), not by you (uid \(user)): its owner could replace the key; keep it in a file of your own"
        }
        if mode & 0o077 != 0 {
            return "group or others may use it (mode \(String(mode & 0o7777, radix: 8))): whoever can read it can forge shared "
                + "heal memory; chmod 600 it"
        }
        return nil
    }

    private static func read(_ name: String, in directory: DirectoryDescriptor, shown path: String) throws -> MemoryKey {
        let fd: Int32
        do throws(Errno) {
            // O_NONBLOCK: a FIFO planted at the name does not wait for a writer (it is refused below).
            fd = try directory.openFile(name, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            let reason =
                switch error.rawValue {
                case ENOENT: "no such file"
                case ELOOP: "is a symbolic link; name the key file itself"
                default: "cannot open: \(error)"
                }
            throw SentinelError(.memoryKey, "\(path): \(reason)", errno: error)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SentinelError(.memoryKey, "\(path): cannot stat: \(Errno.current)", errno: .current) }
        if let problem = problem(owner: info.st_uid, mode: info.st_mode, user: geteuid()) {
            throw SentinelError(.memoryKey, "\(path): \(problem)")
        }
        let data: Data
        do {
            data = try BoundedFile.read(fd: fd, name: path, limit: 256)
        } catch {
            throw SentinelError(.memoryKey, "\(path): not a memory key (64 hex digits, e.g. from `openssl rand -hex 32`)")
        }
        guard let key = parse(String(decoding: data, as: UTF8.self)) else {
            throw SentinelError(.memoryKey, "\(path): not a memory key (64 hex digits, e.g. from `openssl rand -hex 32`)")
        }
        return key
    }
}
