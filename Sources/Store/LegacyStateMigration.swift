import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Moves the state an older Sentinel kept in `./.sentinel` of the current directory to the
/// directories it lives in now (`StateDirectory`).
///
/// The current directory is often a checked-out repository, so only a directory the user made
/// through Sentinel qualifies: a real directory (not a link) owned by this user with mode 0700,
/// as `PrivateDirectory` makes it (git makes directories with the umask's mode). Only Sentinel's
/// own entries move (a repository's `.sentinel/policy.yml` or `STOP` stays): regular files, and
/// for `proposals` a tree of directories and regular files, all owned by this user. A move is
/// one `renameat2(RENAME_NOREPLACE)` by directory descriptor, so nothing is copied, no link is
/// followed and state the destination already holds is never replaced.
public enum LegacyStateMigration {
    /// One piece of state: its name, the files that travel with it, whether it is a directory.
    struct Entry {
        var name: String
        var companions: [String] = []
        var isDirectory = false
        var isCache = false
    }

    static let sqliteSideFiles = ["-wal", "-shm", "-journal"]
    static let entries: [Entry] = [
        Entry(name: "audit.jsonl", companions: [".head"]),
        Entry(name: "autonomy.sqlite", companions: sqliteSideFiles),
        Entry(name: "heal.sqlite", companions: sqliteSideFiles),
        Entry(name: "proposals", isDirectory: true),
        Entry(name: StateDirectory.osvDatabaseName, companions: sqliteSideFiles, isCache: true),
    ]
    /// How deep and how large a `proposals` tree may be to be checked at all.
    static let maxDepth = 8
    static let maxTreeEntries = 100_000

    /// One name and what became of it: the directory it went to, or why it stayed.
    public struct Item: Sendable, Hashable {
        /// The entry's name (`heal.sqlite`, `proposals`).
        public var name: String
        /// Where it went (moved) or why it stayed (kept).
        public var detail: String
    }

    /// What a migration did.
    public struct Outcome: Sendable, Hashable {
        /// Names moved, each with the directory it went to, in entry order.
        public var moved: [Item] = []
        /// Names left where they were, each with the reason.
        public var kept: [Item] = []

        /// The one line to tell the user (nil when there is nothing to tell).
        public func notice(from legacy: String) -> String? {
            guard !moved.isEmpty || !kept.isEmpty else { return nil }
            var directories: [String] = []
            for move in moved where !directories.contains(move.detail) { directories.append(move.detail) }
            let parts = directories.map { directory in
                moved.filter { $0.detail == directory }.map(\.name).joined(separator: ", ") + " to \(directory)"
            }
            var line = parts.isEmpty ? "" : "moved the state in \(legacy): \(parts.joined(separator: "; "))"
            if !kept.isEmpty {
                line += (line.isEmpty ? "" : "; ") + "left in \(legacy): "
                line += kept.map { "\($0.name) (\($0.detail))" }.joined(separator: ", ")
            }
            return line
        }
    }

    /// Moves what qualifies from `legacy` into `state`; an empty outcome when `legacy` is absent,
    /// not a directory this user made through Sentinel, or `cameWithTheTree` says its content
    /// came with the checkout (asked only of a directory that qualifies otherwise: a checkout
    /// under umask 077 makes 0700 directories too). Throws only when a destination directory
    /// cannot be made or opened.
    public static func migrate(
        _ legacy: String, to state: StateDirectory, cameWithTheTree: (String) -> Bool = { _ in false }
    ) throws -> Outcome {
        var outcome = Outcome()
        guard let source = try? DirectoryDescriptor.workingDirectory.openDirectory(legacy),
            let info = try? source.status(), info.st_uid == geteuid(), info.st_mode & 0o7777 == 0o700
        else { return outcome }
        guard !cameWithTheTree(legacy) else { return outcome }
        var destinations: [String: DirectoryDescriptor] = [:]
        for entry in entries {
            guard exists(source, entry.name) else { continue }
            let names = [entry.name] + entry.companions.map { entry.name + $0 }.filter { exists(source, $0) }
            if let problem = names.lazy.compactMap({ self.problem(source, $0, directory: $0 == entry.name && entry.isDirectory) })
                .first
            {
                outcome.kept.append(Item(name: entry.name, detail: problem))
                continue
            }
            let directory = entry.isCache ? state.cachePath : state.path
            if destinations[directory] == nil { destinations[directory] = try openDestination(directory) }
            let target = destinations[directory]!
            if let here = try? target.status(), here.st_dev == info.st_dev && here.st_ino == info.st_ino { continue }
            if names.contains(where: { exists(target, $0) }) {
                outcome.kept.append(Item(name: entry.name, detail: "\(directory) has one already"))
                continue
            }
            if let failure = move(names, from: source, to: target) {
                let reason = failure.rawValue == EXDEV ? "\(directory) is on another file system" : "cannot be moved: \(failure)"
                outcome.kept.append(Item(name: entry.name, detail: reason))
                continue
            }
            outcome.moved.append(Item(name: entry.name, detail: directory))
        }
        // Sentinel's own directory, now empty, goes too; anything else in it keeps it.
        if !outcome.moved.isEmpty { try? DirectoryDescriptor.workingDirectory.remove(legacy, directory: true) }
        return outcome
    }

    /// Moves every name or, on the first failure, moves the ones already moved back.
    private static func move(_ names: [String], from source: DirectoryDescriptor, to target: DirectoryDescriptor) -> Errno? {
        var done: [String] = []
        for name in names {
            do throws(Errno) {
                try source.rename(name, to: name, in: target, replacing: .never)
                done.append(name)
            } catch {
                for name in done { try? target.rename(name, to: name, in: source, replacing: .never) }
                return error
            }
        }
        return nil
    }

    private static func exists(_ directory: DirectoryDescriptor, _ name: String) -> Bool {
        (try? directory.status(of: name)) != nil
    }

    /// Why `name` in `directory` is not Sentinel's to move, or nil when it is.
    private static func problem(_ directory: DirectoryDescriptor, _ name: String, directory isDirectory: Bool) -> String? {
        let info: stat
        do throws(Errno) {
            info = try directory.status(of: name)
        } catch {
            return "cannot be read: \(error)"
        }
        guard info.st_uid == geteuid() else { return "not owned by you" }
        let type = info.st_mode & S_IFMT
        if !isDirectory { return type == S_IFREG ? nil : "not a regular file" }
        guard type == S_IFDIR else { return "not a directory" }
        var budget = maxTreeEntries
        return treeProblem(directory, name, depth: 0, budget: &budget)
    }

    /// The first entry of the tree at `name` that is not a directory or regular file owned by
    /// this user, named with its path, or nil.
    private static func treeProblem(_ parent: DirectoryDescriptor, _ name: String, depth: Int, budget: inout Int) -> String? {
        guard depth < maxDepth else { return "deeper than \(maxDepth) levels" }
        let directory: DirectoryDescriptor
        let entries: [DirectoryDescriptor.Entry]
        do throws(Errno) {
            directory = try parent.openDirectory(name)
            entries = try directory.entries(limit: max(budget, 0))
        } catch {
            return "cannot be listed: \(error)"
        }
        for entry in entries {
            let child = entry.text
            budget -= 1
            guard budget >= 0 else { return "more than \(maxTreeEntries) entries" }
            guard let info = try? directory.status(of: child) else { return "\(child) cannot be read" }
            guard info.st_uid == geteuid() else { return "holds \(child), not owned by you" }
            switch info.st_mode & S_IFMT {
            case S_IFREG: continue
            case S_IFDIR:
                if let problem = treeProblem(directory, child, depth: depth + 1, budget: &budget) { return problem }
            default: return "holds \(child), not a regular file or directory"
            }
        }
        return nil
    }

    /// The destination as `PrivateDirectory` opened and checked it: the moves go where it checked.
    private static func openDestination(_ directory: String) throws -> DirectoryDescriptor {
        try PrivateDirectory.open(directory)
    }
}
