import CLICore
import Store
import Support

/// Which directory a `fleet worker` started as root may lend its unprivileged analysis for a
/// SQLite queue (issue 78, W1). SQLite makes its `-journal`, `-wal` and `-shm` files beside the
/// database, so the worker needs the database's directory writable; lent as it is, the
/// directory's owner becomes the analysis (idmapped), and `--database sqlite:/var/lib/fleet.sqlite`
/// handed it `/var/lib` whole: files it made in `/var/lib/dpkg` were root's on the host.
///
/// The rule: the directory is lent only when it is one Sentinel keeps for the purpose: the state
/// directory or the cache (lent anyway), or a directory of the database's own, private
/// (``PrivateDirectory``: root's, writable by no one else, every directory above it checked) and
/// holding nothing but the database's files (`NAME`, `NAME-journal`, `NAME-wal`, `NAME-shm`, the
/// queue's `NAME.locks`); a missing one root makes (0700) for the purpose. Anything else is
/// refused with one line (exit 2) naming the path and what to do. Never the parent of anything
/// else an operator named.
enum FleetDatabaseDirectory {
    /// The directory to lend writable for the database `file` (absolute), or nil when it lies in
    /// one of `stateDirectories` (absolute, lent already). Throws `.invalidInput` otherwise.
    static func toLend(for file: String, stateDirectories: [String]) throws -> String? {
        let directory = PathText.directory(of: file)
        if stateDirectories.contains(where: { directory == $0 || directory.hasPrefix($0 + "/") }) { return nil }
        let name = PathText.lastComponent(of: file)
        let own = Set([name, name + "-journal", name + "-wal", name + "-shm", name + ".locks"])
        func refusal(_ why: String) -> SentinelError {
            SentinelError(
                .invalidInput,
                "--database sqlite:\(file): a worker started as root lends its SQLite database's directory to its unprivileged analysis, and \(directory) \(why): "
                    + "keep the database in a directory of its own (sqlite:\(directory)/sentinel-fleet/\(name)) or in the state directory (sqlite:\(stateDirectories[0])/\(name)), or use PostgreSQL"
            )
        }
        let opened: DirectoryDescriptor
        do {
            opened = try PrivateDirectory.open(directory)
        } catch let error as SentinelError where error.code == .invalidInput {
            throw refusal("is not a private directory (\(error.message))")
        }
        let entries: [DirectoryDescriptor.Entry]
        do throws(Errno) {
            entries = try opened.entries(limit: own.count)
        } catch {
            throw SentinelError(.io, "\(directory): cannot list: \(error)", errno: error)
        }
        if let other = entries.first(where: { !own.contains($0.text) }) {
            throw refusal("holds \(DisplayText.line(other.text)), which is not the database's")
        }
        return directory
    }
}
