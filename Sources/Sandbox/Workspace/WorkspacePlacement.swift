import Support

/// Where a workspace may appear inside the sandbox. `/workspace` by default; the analysis
/// sandbox shows a repository at its own host path, so that every path a scan reports is the
/// one the user knows. A place is refused when it would cover, or be covered by, what the
/// profile mounts (a read-only host tree, a hidden file, a tmpfs other than one it lies in) or
/// the launcher's own trees (`/proc`, `/dev`, `/.sentinel`).
enum WorkspacePlacement {
    /// Trees the launcher itself makes in every root.
    static let launcherTrees = ["/proc", "/dev", "/.sentinel"]

    /// `path`, lexically normalized, when the workspace may be mounted there for `profile`.
    static func check(_ path: String, profile: Profile) throws -> String {
        let inside = try normalized(path, what: "workspace mount point")
        guard inside != "/" else { throw refused(path, "it would cover the whole root") }
        for tree in profile.filesystem.readOnly + profile.filesystem.hidden + launcherTrees {
            if overlaps(inside, tree) { throw refused(path, "it overlaps \(tree), which the sandbox mounts itself") }
        }
        for tree in profile.filesystem.tmpfs.keys where inside == tree || contains(inside, tree) {
            throw refused(path, "it would cover the tmpfs at \(tree)")
        }
        return inside
    }

    /// `path`, lexically normalized, when it is an absolute path outside the launcher's trees.
    static func checkWorkingDirectory(_ path: String) throws -> String {
        let inside = try normalized(path, what: "working directory")
        if let tree = launcherTrees.first(where: { contains($0, inside) }) {
            throw refused(path, "it lies in \(tree)")
        }
        return inside
    }

    private static func normalized(_ path: String, what: String) throws -> String {
        guard path.hasPrefix("/") else {
            throw SentinelError(.invalidInput, "\(path): a \(what) inside the sandbox must be an absolute path")
        }
        return PathText.lexicallyNormalized(path)
    }

    private static func refused(_ path: String, _ reason: String) -> SentinelError {
        SentinelError(.invalidInput, "\(path): cannot show the workspace there: \(reason)")
    }

    /// Whether `inner` is `outer` or lies beneath it.
    private static func contains(_ outer: String, _ inner: String) -> Bool {
        outer == "/" || inner == outer || inner.hasPrefix(outer + "/")
    }

    private static func overlaps(_ a: String, _ b: String) -> Bool { contains(a, b) || contains(b, a) }
}
