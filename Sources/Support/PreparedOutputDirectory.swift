#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials

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
        do throws(Errno) {
            try parent.directory.makeDirectory(staging, mode: 0o700)
        } catch {
            throw SentinelError(.io, "\(path): cannot create a temporary directory: \(error)", errno: error)
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
        let directory: DirectoryDescriptor
        do throws(Errno) {
            directory = try parent.directory.openDirectory(staging)
        } catch {
            throw SentinelError(.io, "\(path): cannot open the temporary directory: \(error)")
        }
        defer { withExtendedLifetime(directory) {} }
        for file in files {
            guard !file.name.contains("/"), !file.name.isEmpty, file.name != ".", file.name != ".." else {
                throw SentinelError(.io, "\(path): \(file.name) is not a file name")
            }
            if let failure = createExclusive(directory, file.name, file.data, mode: fileMode) {
                throw SentinelError(.io, "\(path)/\(file.name): write failed: \(failure)", errno: failure)
            }
        }
        guard fchmod(directory.rawValue, mode) == 0, fsync(directory.rawValue) == 0 else {
            throw SentinelError(.io, "\(path): cannot finish the temporary directory: \(Errno.current)")
        }
    }

    private func putInPlace(_ staging: String, written: [String]) throws -> Bool {
        do throws(Errno) {
            try parent.directory.rename(staging, to: name, replacing: .never)
            return true
        } catch {
            guard error.rawValue == EEXIST else {
                throw SentinelError(.io, "\(path): cannot rename the output into place: \(error)", errno: error)
            }
        }
        guard case .replaceIfOnly(let names) = existing else {
            remove(staging, names: written)
            return false
        }
        // Checked again now: what sits there may have changed since the output was prepared.
        try checkReplaceable()
        do throws(Errno) {
            try parent.directory.rename(staging, to: name, replacing: .exchange)
        } catch {
            throw SentinelError(.io, "\(path): cannot swap the output into place: \(error)", errno: error)
        }
        // The previous output now sits at the staging name; only the names it may hold go.
        remove(staging, names: Array(names))
        return true
    }

    /// Removes `directory` (a name in the parent) and the given names in it, following nothing.
    private func remove(_ directory: String, names: [String]) {
        if let opened = try? parent.directory.openDirectory(directory) {
            for name in names { try? opened.remove(name) }
        }
        try? parent.directory.remove(directory, directory: true)
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
        do throws(Errno) {
            return try parent.directory.openDirectory(name).entries().map(\.text)
        } catch {
            throw SentinelError(.invalidInput, "\(path): cannot list: \(error)", errno: error)
        }
    }
}
