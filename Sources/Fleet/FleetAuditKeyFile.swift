import Audit
import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The fleet audit key's file (`AuditKey.fileText`): made in the state directory with random bytes
/// on first use, or named by the operator (`--audit-key-file`). Like an ssh private key it is
/// refused unless it is a regular file of this user's that no one else may read or write: whoever
/// reads it can forge the chain, whoever writes it can swap it for a key of her own.
enum FleetAuditKeyFile {
    /// Its name in the state directory.
    static let name = "fleet-audit.key"

    /// The key in the state directory open as `directory` (at `path`), made first when missing
    /// and `create`; another process making it at the same moment wins, and its key is read.
    static func load(in directory: DirectoryDescriptor, path: String, create: Bool) throws -> AuditKey {
        if let key = try read(name, in: directory, path: path) { return key }
        guard create else {
            throw SentinelError(
                .invalidInput,
                "\(path): no such file: copy the workers' \(name) here (mode 600), or name it with --audit-key-file")
        }
        try make(in: directory, path: path)
        guard let key = try read(name, in: directory, path: path) else {
            throw SentinelError(.io, "\(path): the fleet audit key vanished as it was made")
        }
        return key
    }

    /// The key in the file the operator named; a link there is refused.
    static func load(path: String) throws -> AuditKey {
        guard let key = try read(path, in: .workingDirectory, path: path) else {
            throw SentinelError(.invalidInput, "\(path): no such fleet audit key file")
        }
        return key
    }

    /// The key at `name` in `directory`, nil when nothing is there.
    private static func read(_ name: String, in directory: DirectoryDescriptor, path: String) throws -> AuditKey? {
        let fd: Int32
        do throws(Errno) {
            fd = try directory.openFile(name, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            if error.rawValue == ENOENT { return nil }
            let reason = error.rawValue == ELOOP ? "is a symbolic link; name the key file itself" : "cannot open: \(error)"
            throw SentinelError(.invalidInput, "\(path): \(reason)", errno: error)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SentinelError(.io, "\(path): cannot stat: \(Errno.current)", errno: .current) }
        if let problem = problem(owner: info.st_uid, mode: info.st_mode, user: geteuid()) {
            throw SentinelError(.invalidInput, "\(path): \(problem)")
        }
        let text = String(decoding: try BoundedFile.read(fd: fd, name: path, limit: 4096), as: UTF8.self)
        do {
            return try AuditKey(hex: text)
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, "\(path): \(error.message)")
        }
    }

    /// Why a key file of `owner` and `mode` may not be used by `user`, or nil when it may.
    static func problem(owner: uid_t, mode: mode_t, user: uid_t) -> String? {
        if mode & S_IFMT != S_IFREG { return "not a regular file" }
        if owner != user {
            return "owned by uid \(owner), not by you (uid \(user)): whoever owns it can swap the key; keep your own copy"
        }
        if mode & 0o077 != 0 {
            return
                "group or others may read or write it (mode \(String(mode & 0o7777, radix: 8))): whoever reads it can forge the audit chain; chmod 600 it"
        }
        return nil
    }

    /// Writes a new random key under a temporary name, then moves it to `name` unless something is
    /// there already (`RENAME_NOREPLACE`): two processes starting together end up with one key.
    private static func make(in directory: DirectoryDescriptor, path: String) throws {
        let key = try AuditKey.generate()
        let temporary = "." + name + "." + UUID().uuidString
        do throws(Errno) {
            let fd = try directory.openFile(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            let failure = Array(key.fileText.utf8).withUnsafeBytes { writeAll(fd, $0) } ?? (fsync(fd) == 0 ? nil : Errno.current)
            close(fd)
            if let failure { throw failure }
            try directory.rename(temporary, to: name, replacing: .never)
        } catch {
            try? directory.remove(temporary)
            if error.rawValue == EEXIST { return }
            throw SentinelError(.io, "\(path): cannot make the fleet audit key: \(error)", errno: error)
        }
    }
}
