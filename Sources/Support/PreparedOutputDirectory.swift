#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import Foundation

/// A directory of output files written all at once (`heal --out`, a proposal): the files go to a
/// fresh sibling directory, made and filled relative to descriptors (`mkdirat`, `O_EXCL |
/// O_NOFOLLOW`), which is then renamed into place with `renameat2`, so the directory is never
/// half-written and nothing planted at its name (a link to a host directory, a file) is followed.
public final class PreparedOutputDirectory: Sendable {
    /// What to do when a directory already sits at the name.
    public enum Existing: Sendable {
        /// Replace it when it holds nothing but these file names (a previous run's output);
        /// refuse it otherwise rather than delete what someone else put there.
        case replaceIfOnly(Set<String>)
        /// Keep it as it is: the same output was written before.
        case keep
    }

    /// The path as the caller gave it.
    public let path: String
    private let parent: OutputParent
    private let name: String
    private let existing: Existing

    /// Resolves `path`, creating missing parent directories. Throws `SentinelError(.invalidInput)`
    /// naming the path when it is a link, not a directory, or a directory that may not be replaced,
    /// or when its directory part has a link inside one of `trees` (see `PreparedOutputFile`).
    public init(path: String, existing: Existing, refusingLinksInside trees: [String] = []) throws {
        self.path = path
        self.existing = existing
        (parent, name) = try OutputParent.open(for: path, creating: true, trees: trees)
        try checkReplaceable()
    }

    /// The real path of the directory that receives the output directory.
    public var directory: String { parent.realPath }

    /// Whether the output lies in `tree` or beneath it (`tree` a real path).
    public func isInside(_ tree: String) -> Bool { parent.isInside(tree) }

    /// Writes `files` (plain names) as the directory's whole content, directory mode `mode`.
    /// Returns false when `.keep` found the directory already there (nothing written).
    @discardableResult
    public func write(_ files: [(name: String, data: Data)], mode: mode_t = 0o755, fileMode: mode_t = 0o644) throws -> Bool {
        let staging = OutputParent.temporaryName(for: name)
        guard mkdirat(parent.fd, staging, 0o700) == 0 else {
            throw SentinelError(.io, "\(path): cannot create a temporary directory: \(Errno.current)", errno: .current)
        }
        do {
            try fill(staging, files, mode: mode, fileMode: fileMode)
            return try putInPlace(staging, written: files.map(\.name))
        } catch {
            remove(staging, names: files.map(\.name))
            throw error
        }
    }

    private func fill(_ staging: String, _ files: [(name: String, data: Data)], mode: mode_t, fileMode: mode_t) throws {
        let fd = openat(parent.fd, staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw SentinelError(.io, "\(path): cannot open the temporary directory: \(Errno.current)") }
        defer { close(fd) }
        for file in files {
            guard !file.name.contains("/"), !file.name.isEmpty, file.name != ".", file.name != ".." else {
                throw SentinelError(.io, "\(path): \(file.name) is not a file name")
            }
            if let failure = createExclusive(fd, file.name, file.data, mode: fileMode) {
                throw SentinelError(.io, "\(path)/\(file.name): write failed: \(failure)", errno: failure)
            }
        }
        guard fchmod(fd, mode) == 0, fsync(fd) == 0 else {
            throw SentinelError(.io, "\(path): cannot finish the temporary directory: \(Errno.current)")
        }
    }

    private func putInPlace(_ staging: String, written: [String]) throws -> Bool {
        if csys_renameat2(parent.fd, staging, parent.fd, name, 0) == 0 { return true }
        guard errno == EEXIST else {
            throw SentinelError(.io, "\(path): cannot rename the output into place: \(Errno.current)", errno: .current)
        }
        guard case .replaceIfOnly(let names) = existing else {
            remove(staging, names: written)
            return false
        }
        // Checked again now: what sits there may have changed since the output was prepared.
        try checkReplaceable()
        guard csys_renameat2(parent.fd, staging, parent.fd, name, 1) == 0 else {
            throw SentinelError(.io, "\(path): cannot swap the output into place: \(Errno.current)", errno: .current)
        }
        // The previous output now sits at the staging name; only the names it may hold go.
        remove(staging, names: Array(names))
        return true
    }

    /// Removes `directory` (a name in the parent) and the given names in it, following nothing.
    private func remove(_ directory: String, names: [String]) {
        let fd = openat(parent.fd, directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 {
            for name in names { unlinkat(fd, name, 0) }
            close(fd)
        }
        unlinkat(parent.fd, directory, AT_REMOVEDIR)
    }

    private func checkReplaceable() throws {
        guard let kind = parent.kind(of: name) else { return }
        switch kind.type {
        case S_IFDIR: break
        case S_IFLNK: throw SentinelError(.invalidInput, "\(path): is a symbolic link; name the directory itself")
        default: throw SentinelError(.invalidInput, "\(path): exists and is not a directory")
        }
        guard case .replaceIfOnly(let allowed) = existing else { return }
        if let other = try entries().first(where: { !allowed.contains($0) }) {
            throw SentinelError(.invalidInput, "\(path): is not empty and not a previous output directory (it holds \(other))")
        }
    }

    private func entries() throws -> [String] {
        let fd = openat(parent.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, let stream = fdopendir(fd) else {
            if fd >= 0 { close(fd) }
            throw SentinelError(.invalidInput, "\(path): cannot list: \(Errno.current)", errno: .current)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
