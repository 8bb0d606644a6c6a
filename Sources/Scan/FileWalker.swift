#if canImport(Glibc)
    import Glibc
#endif
import Findings
import Foundation
import Support

/// Lists the files a scan covers: regular files under the root, minus directories no one
/// wants scanned (VCS data, dependencies, build output), filtered by include/exclude globs.
/// Symlinks are not followed, so a scan never leaves its tree. Files it cannot cover (too large,
/// unreadable, not regular) are returned as skipped, with the reason, never dropped silently.
public struct FileWalker: Sendable {
    /// When non-empty, only files matching one of these are listed.
    public var include: [Glob]
    /// Files matching any of these are left out.
    public var exclude: [Glob]
    /// Directory names skipped wherever they occur.
    public var skippedDirectories: Set<String>
    /// Files larger than this are skipped and reported (generated or minified code, data dumps).
    public var maxFileBytes: Int

    /// VCS data, dependency, virtual-environment, cache and editor directories.
    public static let defaultSkippedDirectories: Set<String> = [
        ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".build", ".sentinel",
        ".tox", ".mypy_cache", ".pytest_cache", "site-packages", ".idea", ".vscode",
    ]

    /// How many directories deep below a target the walk goes; deeper ones are reported
    /// skipped. Real trees stay far shallower, and each level holds one descriptor open.
    public static let maxDepth = 256

    /// `--max-file-size` when not given: 5 MiB.
    public static let defaultMaxFileBytes = 5 << 20

    /// Makes a walker; by default it lists every file up to 5 MiB outside the skipped directories.
    public init(
        include: [Glob] = [], exclude: [Glob] = [], skippedDirectories: Set<String> = defaultSkippedDirectories,
        maxFileBytes: Int = defaultMaxFileBytes
    ) {
        self.include = include
        self.exclude = exclude
        self.skippedDirectories = skippedDirectories
        self.maxFileBytes = maxFileBytes
    }

    /// What a walk found: the files to scan, those over the size limit, and the ones skipped.
    public struct Selection: Sendable, Hashable {
        /// Readable regular files within the size limit, relative to the root, sorted.
        public var files: [String] = []
        /// Readable regular files over `maxFileBytes` (source scanners skip them; lockfiles among
        /// them are still read by dependency scanning).
        public var oversized: [String] = []
        /// Unreadable files and directories, special files, named symbolic links.
        public var skipped: [SkippedFile] = []
    }

    /// Relative paths, sorted. A root that is a file yields that file alone.
    public func files(under root: String) -> [String] {
        guard let info = Self.status(ofTarget: root) else { return [] }
        if info.st_mode & S_IFMT == S_IFREG {
            return [(root as NSString).lastPathComponent]
        }
        return select(targets: [root], root: root).files
    }

    /// The files of `targets` (absolute paths of files or directories under `root`), relative to
    /// `root`. A named file is taken whatever the include/exclude globs say (the user asked for
    /// it); directories are walked with them.
    public func select(targets: [String], root: String) -> Selection {
        var selection = Selection()
        var seen = Set<String>()
        let filters = Filters(self)
        for target in targets {
            let relative = FileWalker.relative(target, to: root)
            guard let info = Self.status(ofTarget: target) else {
                selection.skipped.append(SkippedFile(file: relative, reason: "cannot read: \(FileWalker.errorText())"))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                walk(target, relative: relative == "." ? "" : relative, filters: filters, into: &selection)
            case S_IFREG:
                consider(at: .workingDirectory, name: target, relative: relative, size: Int(info.st_size), into: &selection)
            case S_IFLNK:
                selection.skipped.append(SkippedFile(file: relative, reason: "symbolic link (not followed)"))
            default:
                selection.skipped.append(SkippedFile(file: relative, reason: "not a regular file"))
            }
        }
        // Overlapping targets (`a.py` and `.`) name a file once.
        selection.files = selection.files.filter { seen.insert($0).inserted }.sorted()
        selection.oversized = Array(Set(selection.oversized)).sorted()
        var seenSkips = Set<String>()
        selection.skipped = selection.skipped.filter { seenSkips.insert($0.file).inserted }.sorted { $0.file < $1.file }
        return selection
    }

    /// What a named target is, a link itself for a link (`lstat`): links are not followed, not even
    /// as targets. A descriptor path (`/proc/PID/fd/N`, how a fleet worker hands over the directory
    /// it checked) is the open directory itself, not a link its tree's owner chose: it is followed.
    /// Nil, with `errno` set, when there is nothing to see.
    static func status(ofTarget target: String) -> stat? {
        var info = stat()
        let found = DirectoryDescriptor.isDescriptorPath(target) ? stat(target, &info) : lstat(target, &info)
        return found == 0 ? info : nil
    }

    /// The include and exclude globs compiled once per walk: a file is checked against all of
    /// them with a few set lookups, however many a configuration lists.
    private struct Filters {
        let include: GlobSet
        let exclude: GlobSet
        /// The exclude patterns ending in `/`: a directory they match is not entered.
        let excludedDirectories: GlobSet

        init(_ walker: FileWalker) {
            include = GlobSet(walker.include)
            exclude = GlobSet(walker.exclude)
            excludedDirectories = GlobSet(walker.exclude.filter { $0.pattern.hasSuffix("/") })
        }
    }

    /// One directory on the walk's own stack: its descriptor (its subdirectories are opened
    /// relative to it) and the subdirectories still to visit.
    private struct Level {
        let directory: DirectoryDescriptor
        var subdirectories: [String]
        /// How many bytes of the walk's path precede this directory's own name.
        let parentLength: Int
    }

    /// Walks `directory` depth first on an explicit stack, never recursing: depth is the tree
    /// owner's to choose. One path buffer grows and shrinks with the stack, so a deep tree costs
    /// memory linear in its depth; directories below `maxDepth` are reported, not walked.
    private func walk(_ directory: String, relative: String, filters: Filters, into selection: inout Selection) {
        var path = Array(relative.utf8)
        let following = DirectoryDescriptor.isDescriptorPath(directory)
        let opened = Result { () throws(Errno) in
            try DirectoryDescriptor.workingDirectory.openDirectory(directory, followingLinks: following)
        }
        guard let first = enter(opened, path: path, parentLength: 0, filters: filters, into: &selection) else { return }
        var levels = [first]
        while !levels.isEmpty {
            let top = levels.count - 1
            guard let name = levels[top].subdirectories.popLast() else {
                path.removeLast(path.count - levels[top].parentLength)
                levels.removeLast()
                continue
            }
            let parentLength = path.count
            if !path.isEmpty { path.append(UInt8(ascii: "/")) }
            path.append(contentsOf: name.utf8)
            if levels.count > FileWalker.maxDepth {
                selection.skipped.append(
                    SkippedFile(
                        file: String(decoding: path, as: UTF8.self) + "/",
                        reason: "nested deeper than \(FileWalker.maxDepth) directories (not walked)"))
                path.removeLast(path.count - parentLength)
                continue
            }
            let parent = levels[top].directory
            let child = Result { () throws(Errno) in try parent.openDirectory(name) }
            if let level = enter(child, path: path, parentLength: parentLength, filters: filters, into: &selection) {
                levels.append(level)
            } else {
                path.removeLast(path.count - parentLength)
            }
        }
    }

    /// Lists the directory `opened` (or the failure to open it), considers its files and returns
    /// its subdirectories still to walk; nil, reported as skipped, when it cannot be listed.
    /// Every call is relative to a directory descriptor: one path lookup per entry instead of
    /// one per syscall per full path, and nothing the tree's owner swaps between the calls is
    /// followed.
    private func enter(
        _ opened: Result<DirectoryDescriptor, Errno>, path: [UInt8], parentLength: Int, filters: Filters,
        into selection: inout Selection
    ) -> Level? {
        let relative = String(decoding: path, as: UTF8.self)
        let listed = opened.flatMap { directory in Result { () throws(Errno) in (directory, try directory.entries()) } }
        guard case .success(let (directory, entries)) = listed else {
            if case .failure(let failure) = listed {
                selection.skipped.append(
                    SkippedFile(file: relative.isEmpty ? "." : relative + "/", reason: "cannot list directory: \(failure)"))
            }
            return nil
        }
        var subdirectories: [String] = []
        for (name, type) in entries.map({ ($0.text, $0.type) }) {
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            // The size is needed for files; a file system without types in its entries needs the
            // type from stat too. Directories and links need neither.
            var kind = Int32(type)
            if kind == Int32(DT_REG) || kind == Int32(DT_UNKNOWN) {
                guard let found = try? directory.status(of: name) else { continue }
                info = found
                kind = Int32(DirectoryDescriptor.Entry.type(ofMode: info.st_mode))
            }
            switch kind {
            case Int32(DT_DIR):
                if skippedDirectories.contains(name) { continue }
                if filters.excludedDirectories.matches(relativePath) { continue }
                subdirectories.append(name)
            case Int32(DT_REG):
                if !filters.include.isEmpty && !filters.include.matches(relativePath) { continue }
                if filters.exclude.matches(relativePath) { continue }
                consider(at: directory, name: name, relative: relativePath, size: Int(info.st_size), into: &selection)
            default:
                // Symbolic links are deliberately not followed, and sockets or FIFOs are not source.
                continue
            }
        }
        return Level(directory: directory, subdirectories: subdirectories, parentLength: parentLength)
    }

    /// Adds a regular file (`name` in `directory`): selected, oversized, or skipped when it
    /// cannot be opened.
    private func consider(
        at directory: DirectoryDescriptor, name: String, relative: String, size: Int, into selection: inout Selection
    ) {
        // Checked (not opened: one syscall instead of two, for every file) so that a file no
        // scanner could read is reported here, once.
        do throws(Errno) {
            try directory.checkReadable(name)
        } catch {
            selection.skipped.append(SkippedFile(file: relative, reason: "cannot read: \(error)"))
            return
        }
        if size > maxFileBytes {
            selection.oversized.append(relative)
        } else {
            selection.files.append(relative)
        }
    }

    /// Why a file over the limit was skipped, e.g. `larger than --max-file-size (6.0M > 5.0M)`.
    public func oversizedReason(bytes: Int) -> String {
        "larger than --max-file-size (\(FileWalker.formatSize(bytes)) > \(FileWalker.formatSize(maxFileBytes)))"
    }

    /// `6.0M`, `512.0K`, `300B`: sizes in the K/M/G units `--max-file-size` takes.
    public static func formatSize(_ bytes: Int) -> String {
        let units: [(String, Double)] = [("G", 1_073_741_824), ("M", 1_048_576), ("K", 1024)]
        for (unit, scale) in units where Double(bytes) >= scale {
            return String(format: "%.1f", Double(bytes) / scale) + unit
        }
        return "\(bytes)B"
    }

    /// `path` relative to `root` (`.` for the root itself).
    static func relative(_ path: String, to root: String) -> String {
        if path == root { return "." }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// The current `errno` as text (`Permission denied`).
    private static func errorText() -> String {
        String(cString: strerror(errno))
    }

}
