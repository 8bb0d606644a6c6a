#if canImport(Glibc)
    import Glibc
#endif

/// Where an output lands relative to the tree a command reads.
///
/// An output inside the scanned tree (or the repository heal works on) is written safely, but the
/// next scan reads it as part of the tree, and whoever can write the tree can plant something at
/// its name between runs: the CLI says so once.
public enum OutputPlacement {
    /// The real path of `path` (nil when it does not resolve).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The warning for an output named by `option` at `path` inside `tree`.
    public static func insideWarning(option: String, path: String, tree: String) -> String {
        "\(option) \(path) lies inside \(tree), the tree being read; write it outside the tree"
    }
}
