/// Path arithmetic on text, for names a scanned tree chooses. Foundation's
/// `NSString.deletingLastPathComponent` traps (SIGILL) on a one-character path such as `a` and
/// misses a `/` that a combining mark follows (swift-corelibs-foundation 6.3), so code that takes
/// names from a repository splits them here, on Unicode scalars.
public enum PathText {
    /// Everything before the last `/` (trailing slashes ignored): `a/b/c` → `a/b`, `a` → ``,
    /// `/a` → `/`, as `deletingLastPathComponent` means it.
    public static func directory(of path: String) -> String {
        var scalars = Substring(path).unicodeScalars
        while scalars.count > 1, scalars.last == "/" { scalars.removeLast() }
        guard let slash = scalars.lastIndex(of: "/") else { return "" }
        var directory = scalars[..<slash]
        while directory.count > 1, directory.last == "/" { directory.removeLast() }
        return directory.isEmpty ? "/" : String(directory)
    }

    /// The part after the last `/` (trailing slashes ignored): `a/b/c` → `c`, `a` → `a`.
    public static func lastComponent(of path: String) -> String {
        var scalars = Substring(path).unicodeScalars
        while scalars.count > 1, scalars.last == "/" { scalars.removeLast() }
        guard let slash = scalars.lastIndex(of: "/") else { return String(scalars) }
        let last = scalars[scalars.index(after: slash)...]
        return last.isEmpty ? "/" : String(last)
    }
}
